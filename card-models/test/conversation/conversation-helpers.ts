import {
  createConversation,
  type ConversationSnapshot,
  type ToolCallBlock,
} from '@dsh/card-models';
import { events, type Payload } from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';

/** The snapshot of a window holding exactly `payloads` (seqs from `firstSeq`). */
export function assemble(payloads: readonly Payload[], firstSeq = 0): ConversationSnapshot {
  return createConversation().apply({ kind: 'replace', events: events(payloads, firstSeq) });
}

/** The same window fed one event at a time. */
export function assembleLive(list: readonly SessionEvent[]): ConversationSnapshot {
  const conversation = createConversation();
  for (const event of list) conversation.apply({ kind: 'append', events: [event] });
  return conversation.snapshot;
}

/** The same window loaded as pages of `size` events, newest first (replace, then prepends). */
export function assemblePaged(list: readonly SessionEvent[], size: number): ConversationSnapshot {
  const conversation = createConversation();
  let end = list.length;
  let start = Math.max(0, end - size);
  conversation.apply({ kind: 'replace', events: list.slice(start, end) });
  while (start > 0) {
    end = start;
    start = Math.max(0, end - size);
    conversation.apply({ kind: 'prepend', events: list.slice(start, end) });
  }
  return conversation.snapshot;
}

/** The kinds of the snapshot's nodes, in order. */
export function kinds(snapshot: ConversationSnapshot): string[] {
  return snapshot.nodes.map((node) => node.kind);
}

/** Every top-level tool block shown in `nodes`, in surface order. */
export function shownTools(snapshot: ConversationSnapshot): ToolCallBlock[] {
  return snapshot.nodes.flatMap((node) => {
    if (node.kind === 'tool-result') return [node.tool];
    if (node.kind === 'assistant') {
      return node.blocks.flatMap((block) => (block.kind === 'tool-call' ? [block.tool] : []));
    }
    return [];
  });
}

/** The tool block with `callId` anywhere in the snapshot (nodes, sub-calls, running calls). */
export function findTool(
  snapshot: ConversationSnapshot,
  callId: string,
): ToolCallBlock | undefined {
  const stack = [...shownTools(snapshot), ...snapshot.runningCalls];
  for (let tool = stack.pop(); tool !== undefined; tool = stack.pop()) {
    if (tool.callId === callId) return tool;
    stack.push(...tool.subCalls);
  }
  return undefined;
}

/** A tool tree as `name:status` lines, sub-calls indented, for compact expectations. */
export function outline(tool: ToolCallBlock | undefined, depth = 0): string[] {
  if (tool === undefined) return [];
  const line = `${'  '.repeat(depth)}${tool.callId}:${tool.name}:${tool.status}`;
  return [line, ...tool.subCalls.flatMap((sub) => outline(sub, depth + 1))];
}
