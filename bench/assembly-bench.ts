import { fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  createCardCache,
  createConversation,
  type ConversationNode,
  type PathFacts,
} from '@dsh/card-models';
import { events, generateLongSession } from '@dsh/fixtures';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { since, type BenchRow } from './bench-row.js';

const facts: PathFacts = { cwd: '/home/dev/project', home: '/home/dev' };

/** Nodes a client keeps on screen while following: the derivation test looks at these. */
const visibleNodes = 50;

/** Events per append in the batch row (a page-sized catch-up after a reconnect). */
const batch = 100;

function toolBlocksOf(nodes: readonly ConversationNode[]) {
  return nodes.flatMap((node) => {
    if (node.kind === 'tool-result') return [node.tool];
    if (node.kind !== 'assistant') return [];
    return node.blocks.flatMap((b) => (b.kind === 'tool-call' ? [b.tool] : []));
  });
}

/**
 * Client fold throughput: live assembly of a long session one event at a time,
 * against decoding the same events from protobuf binary, and card derivations per
 * appended event for a client that keeps the last 50 nodes on screen.
 */
export async function assemblyBench(size: number): Promise<BenchRow[]> {
  const list: SessionEvent[] = events([...generateLongSession({ events: size, seed: 7 })]);
  const binaries = list.map((e) => toBinary(SessionEventSchema, e));

  let start = performance.now();
  for (const bytes of binaries) fromBinary(SessionEventSchema, bytes);
  const decodeMs = since(start);

  const conversation = createConversation();
  start = performance.now();
  for (const event of list) conversation.apply({ kind: 'append', events: [event] });
  const assembleMs = since(start);

  const batched = createConversation();
  start = performance.now();
  for (let i = 0; i < list.length; i += batch) {
    batched.apply({ kind: 'append', events: list.slice(i, i + batch) });
  }
  const batchMs = since(start);

  const follower = createConversation();
  const cache = createCardCache();
  let previousNodes: readonly ConversationNode[] | undefined;
  for (const event of list.slice(0, Math.min(size, 20_000))) {
    const snapshot = follower.apply({ kind: 'append', events: [event] });
    if (snapshot.nodes === previousNodes && snapshot.runningCalls.length === 0) continue;
    previousNodes = snapshot.nodes;
    const visible = snapshot.nodes.slice(-visibleNodes);
    for (const block of [...toolBlocksOf(visible), ...snapshot.runningCalls])
      cache.card(block, facts);
  }
  const followed = Math.min(size, 20_000);
  const label = size.toLocaleString('en-US');
  return [
    {
      section: 'assembly',
      name: `protobuf binary decode, ${label} events`,
      value: size / (decodeMs / 1000),
      unit: 'events/s',
    },
    {
      section: 'assembly',
      name: `live assembly (append one by one), ${label} events`,
      value: size / (assembleMs / 1000),
      unit: 'events/s',
    },
    {
      section: 'assembly',
      name: `live assembly (append ${batch} at a time), ${label} events`,
      value: size / (batchMs / 1000),
      unit: 'events/s',
    },
    {
      section: 'assembly',
      name: 'assembly time / decode time',
      value: assembleMs / decodeMs,
      unit: 'x',
      note: 'target <= 1',
    },
    {
      section: 'assembly',
      name: `card derivations per appended event (${followed.toLocaleString('en-US')} events, last ${visibleNodes} nodes)`,
      value: cache.derivations / followed,
      unit: 'cards/event',
    },
  ];
}
