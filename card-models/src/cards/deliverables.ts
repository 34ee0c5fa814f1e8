import type {
  ConversationNode,
  ConversationSnapshot,
  ToolCallBlock,
} from '../conversation/types.js';
import { stringField, topLevelArgs } from './card-json.js';
import { displayPath, resolveWorkdir, type PathFacts } from './path-facts.js';

/** One file a turn produced, shown as a chip under the turn's closing assistant message. */
export interface Deliverable {
  /** The path as the call named it. */
  readonly path: string;
  /** The path resolved against the session cwd, for opening the file. */
  readonly absolutePath: string;
  readonly displayPath: string;
}

/**
 * The files one turn produced (SPEC 7.2 "Deliverables"): successful top-level `write`,
 * `edit` and `str_replace_editor` create/str_replace/insert calls, first-seen order,
 * de-duplicated by resolved path, counting only results settled before the turn's
 * closing assistant message (its last assistant node in the window).
 */
export function deliverables(
  source: ConversationSnapshot | readonly ConversationNode[],
  turn: number,
  facts: PathFacts,
): Deliverable[] {
  return deliverablesByTurn(source, facts).get(turn) ?? [];
}

/**
 * The deliverables of every turn in the window in one pass over the nodes; turns
 * without any are absent from the map.
 */
export function deliverablesByTurn(
  source: ConversationSnapshot | readonly ConversationNode[],
  facts: PathFacts,
): Map<number, Deliverable[]> {
  const nodes = isNodeList(source) ? source : source.nodes;
  const closingSeq = new Map<number, number>();
  const candidates: { turn: number; resultSeq: number; path: string }[] = [];
  for (const node of nodes) {
    if (node.kind !== 'assistant') continue;
    closingSeq.set(node.turn, node.seq);
    for (const block of node.blocks) {
      if (block.kind !== 'tool-call') continue;
      const path = producedPath(block.tool);
      const resultSeq = block.tool.result?.seq;
      if (path !== undefined && resultSeq !== undefined) {
        candidates.push({ turn: block.tool.turn, resultSeq, path });
      }
    }
  }
  const byTurn = new Map<number, Deliverable[]>();
  const seen = new Set<string>();
  for (const { turn, resultSeq, path } of candidates) {
    const closing = closingSeq.get(turn);
    if (closing === undefined || resultSeq > closing) continue;
    const absolutePath = resolveWorkdir(path, facts.cwd);
    const key = `${turn}\u0000${fileKey(absolutePath)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byTurn.get(turn) ?? [];
    list.push({ path, absolutePath, displayPath: displayPath(path, facts) });
    byTurn.set(turn, list);
  }
  return byTurn;
}

/** Windows paths name the same file whatever their case. */
export function fileKey(absolutePath: string): string {
  return /^(?:[A-Za-z]:|\\\\)/.test(absolutePath) ? absolutePath.toLowerCase() : absolutePath;
}

function isNodeList(
  source: ConversationSnapshot | readonly ConversationNode[],
): source is readonly ConversationNode[] {
  return Array.isArray(source);
}

/** The path a successful first-party mutation call wrote, or `undefined` for any other call. */
export function producedPath(tool: ToolCallBlock): string | undefined {
  if (tool.status !== 'ok' || !tool.result || tool.result.isError) return undefined;
  const args = topLevelArgs(tool);
  if (!args) return undefined;
  switch (tool.name) {
    case 'write':
    case 'edit':
      return stringField(args, 'file_path') || undefined;
    case 'str_replace_editor': {
      const command = stringField(args, 'command');
      const mutates = command === 'create' || command === 'str_replace' || command === 'insert';
      return mutates ? stringField(args, 'path') || undefined : undefined;
    }
    default:
      return undefined;
  }
}
