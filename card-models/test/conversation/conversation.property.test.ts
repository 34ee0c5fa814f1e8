import {
  createConversation,
  type ConversationSnapshot,
  type ToolCallBlock,
} from '@dsh/card-models';
import {
  agentError,
  approvalRequested,
  approvalResolved,
  ApprovalDecision,
  assistantMessage,
  chunk,
  codeDispatch,
  codeDispatchStart,
  events,
  extension,
  questionRequested,
  questionResolved,
  reasoning,
  text,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  TurnEndReason,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { BlockType } from '@dsh/gen/content';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleLive, assemblePaged, shownTools } from './conversation-helpers.js';

const id = fc.constantFrom('a', 'b', 'c', 'r', '');
const turn = fc.integer({ min: 0, max: 3 });
const at = fc.record({ turn, step: fc.integer({ min: 0, max: 2 }) });
const index = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(4_000_000_000));
const str = fc.string({ maxLength: 4 });
const reason = fc.constantFrom(
  TurnEndReason.UNSPECIFIED,
  TurnEndReason.COMPLETED,
  TurnEndReason.CANCELLED,
  TurnEndReason.ERROR,
);
const block = fc.oneof(
  str.map(text),
  str.map(reasoning),
  fc.tuple(id, str).map(([callId, name]) => toolCallBlock(callId, name, '{')),
);
const streamChunk = fc.oneof(
  fc.tuple(index, fc.constantFrom(0, 1, 2, 3, 9)).map(([i, type]) => ({
    case: 'blockStart' as const,
    value: {
      $typeName: 'dsh.session.v1.BlockStart' as const,
      index: i,
      blockType: type as BlockType,
    },
  })),
  fc.tuple(index, str).map(([i, s]) => ({
    case: 'textDelta' as const,
    value: { $typeName: 'dsh.session.v1.TextDelta' as const, index: i, text: s },
  })),
  fc.tuple(index, str).map(([i, s]) => ({
    case: 'reasoningDelta' as const,
    value: { $typeName: 'dsh.session.v1.ReasoningDelta' as const, index: i, text: s },
  })),
  fc.tuple(index, id, fc.option(str, { nil: undefined }), str).map(([i, callId, name, delta]) => ({
    case: 'toolCallDelta' as const,
    value: {
      $typeName: 'dsh.session.v1.ToolCallDelta' as const,
      index: i,
      id: callId,
      name,
      argumentsDelta: delta,
    },
  })),
  fc.tuple(index, block).map(([i, b]) => ({
    case: 'blockEnd' as const,
    value: { $typeName: 'dsh.session.v1.BlockEnd' as const, index: i, block: b },
  })),
  fc.constant({ case: undefined, value: undefined }),
);

/** Any event the assembler may meet, including ones that make no sense together. */
const payload: fc.Arbitrary<Payload> = fc.oneof(
  str.map((s) => userMessage(s)),
  turn.map(turnStart),
  fc.tuple(turn, reason).map(([n, r]) => turnEnd(n, r)),
  fc.tuple(at, streamChunk).map(([a, c]) => chunk(a, c)),
  fc.tuple(at, fc.array(block, { maxLength: 3 })).map(([a, bs]) => assistantMessage(a, bs)),
  fc.tuple(id, str, at).map(([callId, name, a]) => toolCall(callId, name, '{"x"', a)),
  fc.tuple(id, fc.boolean(), turn).map(([callId, failed, n]) =>
    toolResult(callId, 'out', {
      turn: n,
      ...(failed ? { error: { code: 'x', message: 'm' } } : {}),
    }),
  ),
  fc
    .tuple(id, id, str)
    .map(([parent, callId, name]) => codeDispatchStart(parent, callId, name, {})),
  fc
    .tuple(id, id, fc.boolean())
    .map(([parent, callId, failed]) =>
      codeDispatch(parent, callId, 'o', failed ? { code: 'x', message: 'm' } : undefined),
    ),
  fc.tuple(id, id).map(([a, c]) => approvalRequested(a, c, 'bash', 'r')),
  id.map((a) => approvalResolved(a, ApprovalDecision.DENY)),
  fc.tuple(id, id).map(([q, c]) => questionRequested(q, c, [{ question: '?' }])),
  id.map((q) => questionResolved(q, 'cancelled')),
  str.map((s) => agentError(s, 'e')),
  str.map((s) => extension(s, {})),
  fc.constant<Payload>({ case: undefined, value: undefined }),
);

/** Asserts the structural promises every snapshot keeps. */
function checkInvariants(snapshot: ConversationSnapshot): void {
  const walk = (tool: ToolCallBlock, ancestors: Set<string>): void => {
    expect(ancestors.has(tool.callId)).toBe(false);
    const path = new Set(ancestors).add(tool.callId);
    for (const sub of tool.subCalls) {
      expect(sub.parentCallId).toBe(tool.callId);
      walk(sub, path);
    }
  };
  shownTools(snapshot).forEach((tool) => {
    expect(tool.parentCallId).toBeUndefined();
    walk(tool, new Set());
  });
  for (const tool of snapshot.runningCalls) {
    expect(tool.status).toBe('running');
    expect(tool.parentCallId).toBeUndefined();
  }
  expect(snapshot.endSeq - snapshot.firstSeq).toBeGreaterThanOrEqual(0);
}

describe('createConversation() on arbitrary events', () => {
  it('never throws and gives the same snapshot live, at once and paged', () => {
    fc.assert(
      fc.property(
        fc.array(payload, { maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        (payloads, size) => {
          const list = events(payloads);
          const whole = createConversation().apply({ kind: 'replace', events: list });
          checkInvariants(whole);
          expect(assembleLive(list)).toEqual(whole);
          expect(assemblePaged(list, size)).toEqual(whole);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary window changes', () => {
    const change = fc.record({
      kind: fc.constantFrom('replace' as const, 'prepend' as const, 'append' as const),
      first: fc.integer({ min: 0, max: 30 }),
      payloads: fc.array(payload, { maxLength: 8 }),
      shuffle: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 12 }), (changes) => {
        const conversation = createConversation();
        for (const { kind, first, payloads, shuffle } of changes) {
          const list = events(payloads, first);
          if (shuffle) list.reverse();
          const result = conversation.tryApply({ kind, events: list });
          expect(result.snapshot).toBe(conversation.snapshot);
          checkInvariants(result.snapshot);
        }
      }),
      { numRuns: 300 },
    );
  });
});
