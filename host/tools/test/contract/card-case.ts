import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CardBody } from '@dsh/card-models';
import type { Answering, CardRun, ContractHarness } from './contract-harness.js';

/** What a case can reach: the harness with a search provider, one without, the web server. */
export interface CaseEnv {
  h: ContractHarness;
  /** Tools created without a search provider (`web_search` not configured). */
  bare: ContractHarness;
  /** Base URL of the test's HTTP server on 127.0.0.1. */
  web: string;
}

/**
 * One row of the contract table: a real call of a first-party tool and the card kinds
 * card-models must derive while it runs and once it settled, with precise extra checks.
 */
export interface CardCase {
  name: string;
  tool: string;
  /** JSON arguments (a string is sent raw, for malformed text); absent with `argsFrom`. */
  args?: unknown;
  /** Arguments that need the environment (the web server's URL); wins over `args`. */
  argsFrom?: (env: CaseEnv) => unknown;
  setup?: (env: CaseEnv) => void | Promise<void>;
  /** How `ask_user` is answered; without it the context has no `askUser`. */
  answer?: Answering;
  /** Run with the tools that have no search provider. */
  bare?: boolean;
  running: CardBody['kind'];
  settled: CardBody['kind'];
  /** The structured error code of the result; '' for a successful result. */
  errorCode: string;
  check?: (run: CardRun, env: CaseEnv) => void | Promise<void>;
}

/** The body of `run`'s settled card narrowed to `kind` (fails the test otherwise). */
export function bodyOf<K extends CardBody['kind']>(
  run: CardRun,
  kind: K,
): Extract<CardBody, { kind: K }> {
  const body = run.card.body;
  if (body.kind !== kind) throw new Error(`expected a ${kind} card, got ${body.kind}`);
  return body as Extract<CardBody, { kind: K }>;
}

/** Diff lines written in the meta hunk notation (` ctx`, `-old`, `+new`). */
export function hunkNotation(lines: readonly { kind: string; text: string }[]): string[] {
  const sign: Record<string, string> = { context: ' ', removed: '-', added: '+' };
  return lines.map((line) => `${sign[line.kind] ?? '?'}${line.text}`);
}

/** Writes a file (and its folders) under the harness cwd. */
export function putFile(env: CaseEnv, path: string, text: string): void {
  const full = join(env.h.cwd, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}
