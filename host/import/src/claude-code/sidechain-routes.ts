import { createHash } from 'node:crypto';
import { contentBlocks, contentText } from '../content-blocks.js';
import { isRecord, stringOf } from '../json-fields.js';
import type { TranscriptLine } from './transcript-line.js';

/**
 * Where the interleaved sidechains of an old main transcript go: recent line uuids to the
 * target they belong to (`side-<k>`, or `internal` for Claude Code's own warm-up agents,
 * which are not imported), how many chains exist, the last one, and each chain's first
 * prompt (hashed) so a Task call can find the chain that ran it.
 */
export interface SidechainRoutes {
  byUuid: Record<string, string>;
  count: number;
  last: string;
  prompts?: Record<string, string>;
}

/** The target key of lines Claude Code ran for itself (no session is made for them). */
export const internalTarget = 'internal';

const maxUuids = 256;
const maxPrompts = 256;

/** Routes with no chain yet. */
export function emptyRoutes(): SidechainRoutes {
  return { byUuid: {}, count: 0, last: '', prompts: {} };
}

/**
 * The target of a main-file line: `main`, a `side-<k>` chain, or `internal`. A chain
 * starts at a sidechain line whose parent is unknown; it is `internal` when its first
 * prompt is Claude Code's `Warmup` probe.
 */
export function routeLine(line: TranscriptLine, routes: SidechainRoutes): string {
  const { fields } = line;
  if (fields.isSidechain !== true) return 'main';
  const parent = stringOf(fields, 'parentUuid');
  let key = parent !== undefined ? routes.byUuid[parent] : undefined;
  if (key === undefined && (parent === undefined || routes.last === '')) {
    const prompt = line.type === 'user' ? promptOf(fields.message) : undefined;
    if (prompt !== undefined && prompt.trim() === 'Warmup') key = internalTarget;
    else {
      routes.count += 1;
      key = `side-${routes.count}`;
      if (prompt !== undefined)
        remember((routes.prompts ??= {}), promptKey(prompt), key, maxPrompts);
    }
  }
  key ??= routes.last;
  routes.last = key;
  const uuid = stringOf(fields, 'uuid');
  if (uuid !== undefined) remember(routes.byUuid, uuid, key, maxUuids);
  return key;
}

/** The chain whose first prompt is `prompt`, or `undefined`. */
export function chainOfPrompt(routes: SidechainRoutes, prompt: string): string | undefined {
  const key = promptKey(prompt);
  return routes.prompts !== undefined && Object.hasOwn(routes.prompts, key)
    ? routes.prompts[key]
    : undefined;
}

function promptOf(message: unknown): string | undefined {
  if (!isRecord(message)) return undefined;
  return contentText(contentBlocks(message.content));
}

function promptKey(prompt: string): string {
  return createHash('sha256').update(prompt.trim()).digest('hex').slice(0, 24);
}

function remember(map: Record<string, string>, key: string, value: string, max: number): void {
  map[key] = value;
  const keys = Object.keys(map);
  if (keys.length > max) delete map[keys[0]!];
}
