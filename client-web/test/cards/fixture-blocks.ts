import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createConversation,
  type ConversationSnapshot,
  type PathFacts,
  type ToolCallBlock,
} from '@dsh/card-models';
import { journalsDir } from '@dsh/fixtures/journals';
import type { SessionEvent } from '@dsh/gen/events';
import { decodeEventLine } from '@dsh/journal';

/** One fixture journal, decoded and assembled into a conversation snapshot. */
export interface FixtureSession {
  readonly name: string;
  readonly facts: PathFacts;
  readonly snapshot: ConversationSnapshot;
}

/** Home directory of the fixture sessions (their header records only the cwd). */
export const fixtureHome = '/home/dev';

/** Names of every fixture journal, sorted. */
export function fixtureNames(): string[] {
  return readdirSync(journalsDir)
    .filter((file) => file.endsWith('.jsonl'))
    .map((file) => file.slice(0, -'.jsonl'.length))
    .sort();
}

/** Reads a fixture journal with the host's line codec and folds it with `createConversation`. */
export function loadFixture(name: string): FixtureSession {
  const [headerLine = '', ...lines] = readFileSync(resolve(journalsDir, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const header = JSON.parse(headerLine) as { cwd: string };
  const events: SessionEvent[] = lines.map((line, seq) => {
    const decoded = decodeEventLine(line, seq);
    if (!decoded.ok) throw new Error(`${name}.jsonl line ${seq + 2}: ${decoded.error}`);
    return decoded.value;
  });
  const conversation = createConversation();
  const result = conversation.tryApply({ kind: 'replace', events });
  if (!result.ok) throw new Error(`${name}.jsonl: ${result.error.message}`);
  return { name, facts: { cwd: header.cwd, home: fixtureHome }, snapshot: result.snapshot };
}

/** Top-level tool blocks of a snapshot in surface order (the partial's last). */
export function topLevelBlocks(snapshot: ConversationSnapshot): ToolCallBlock[] {
  const blocks: ToolCallBlock[] = [];
  for (const node of snapshot.nodes) {
    if (node.kind === 'tool-result') blocks.push(node.tool);
    if (node.kind !== 'assistant') continue;
    for (const block of node.blocks) if (block.kind === 'tool-call') blocks.push(block.tool);
  }
  for (const block of snapshot.partial?.blocks ?? []) {
    if (block.kind === 'tool-call') blocks.push(block.tool);
  }
  return blocks;
}

/** Every block with its sub-calls after it, depth first. */
export function withSubCalls(blocks: readonly ToolCallBlock[]): ToolCallBlock[] {
  return blocks.flatMap((block) => [block, ...withSubCalls(block.subCalls)]);
}

/** Top-level blocks kept from each end of a long fixture. */
const sampleEnds = 6;

/**
 * The blocks a test renders: all of them, or for a long session (which repeats a few
 * turn shapes) its first and last `sampleEnds` blocks.
 */
export function sampleBlocks(all: readonly ToolCallBlock[]): readonly ToolCallBlock[] {
  return all.length > 4 * sampleEnds
    ? [...all.slice(0, sampleEnds), ...all.slice(-sampleEnds)]
    : all;
}
