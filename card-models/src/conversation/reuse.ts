import type {
  AssistantBlock,
  ConversationNode,
  LiveOutput,
  PartialMessage,
  ToolCallBlock,
  ToolResultFacts,
} from './types.js';

/**
 * Identity keeping for rebuilt state: each function returns the previous object when the
 * fresh one holds the same facts, so a rebuild (prepend, replace) or a no-op event leaves
 * unchanged nodes and blocks with their identity. Event-derived fields (content, time,
 * usage) compare by identity, which holds because a rebuild reuses the window's events.
 */
export function reuseTool(fresh: ToolCallBlock, old: ToolCallBlock | undefined): ToolCallBlock {
  if (old === undefined || old === fresh) return fresh;
  const same =
    fresh.callId === old.callId &&
    fresh.name === old.name &&
    fresh.argsRaw === old.argsRaw &&
    fresh.parentCallId === old.parentCallId &&
    fresh.turn === old.turn &&
    fresh.step === old.step &&
    fresh.seq === old.seq &&
    fresh.startTime === old.startTime &&
    fresh.endTime === old.endTime &&
    fresh.status === old.status &&
    (fresh.call === old.call ||
      (fresh.call !== null && old.call !== null && fresh.call.seq === old.call.seq)) &&
    sameResult(fresh.result, old.result) &&
    sameLive(fresh.live, old.live) &&
    (fresh.answers === old.answers ||
      (fresh.answers !== undefined &&
        old.answers !== undefined &&
        sameItems(fresh.answers, old.answers))) &&
    sameItems(fresh.subCalls, old.subCalls);
  return same ? old : fresh;
}

/** The previous node when it holds the same facts; else the fresh one, reusing equal blocks. */
export function reuseNode(
  fresh: ConversationNode,
  old: ConversationNode | undefined,
): ConversationNode {
  if (old === undefined || old === fresh || old.kind !== fresh.kind) return fresh;
  if (fresh.kind === 'assistant' && old.kind === 'assistant') {
    const blocks = reuseBlocks(fresh.blocks, old.blocks);
    const candidate = blocks === fresh.blocks ? fresh : { ...fresh, blocks };
    return shallowEqual(candidate, old) ? old : candidate;
  }
  return shallowEqual(fresh, old) ? old : fresh;
}

/** The previous partial when it holds the same facts. */
export function reusePartial(
  fresh: PartialMessage | undefined,
  old: PartialMessage | undefined,
): PartialMessage | undefined {
  if (fresh === undefined || old === undefined) return fresh;
  const blocks = reuseBlocks(fresh.blocks, old.blocks);
  const candidate = blocks === fresh.blocks ? fresh : { ...fresh, blocks };
  return shallowEqual(candidate, old) ? old : candidate;
}

/** The previous array when both hold the same items in the same order. */
export function reuseItems<T>(fresh: readonly T[], old: readonly T[] | undefined): readonly T[] {
  return old !== undefined && sameItems(fresh, old) ? old : fresh;
}

/** Element-wise reuse of assistant blocks; the old array itself when every block matches. */
export function reuseBlocks(
  fresh: readonly AssistantBlock[],
  old: readonly AssistantBlock[],
): readonly AssistantBlock[] {
  let all = fresh.length === old.length;
  let any = false;
  const out = fresh.map((block, i) => {
    const previous = old[i];
    if (previous !== undefined && shallowEqual(block, previous)) {
      any = true;
      return previous;
    }
    all = false;
    return block;
  });
  if (all) return old;
  return any ? out : fresh;
}

/** The previous map when both hold the same values under the same keys; else a copy. */
export function reuseMap<K, V>(
  fresh: Map<K, V>,
  old: ReadonlyMap<K, V> | undefined,
): ReadonlyMap<K, V> {
  if (old !== undefined && old.size === fresh.size) {
    let same = true;
    for (const [key, value] of fresh) if (old.get(key) !== value) same = false;
    if (same) return old;
  }
  return new Map(fresh);
}

function sameResult(a: ToolResultFacts | undefined, b: ToolResultFacts | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && shallowEqual(a, b));
}

function sameLive(a: LiveOutput | undefined, b: LiveOutput | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && shallowEqual(a, b));
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function shallowEqual(a: object, b: object): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
  }
  return true;
}
