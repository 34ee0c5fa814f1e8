import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CompactionReason, TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import { compactionSummaryHeading } from '@dsh/providers';
import { textReply } from '@dsh/providers/test-kit';
import { startHarness, payloadOf, type Harness } from './harness.js';
import {
  emitted,
  emitTool,
  emittingModel,
  fakeTokens,
  isCompaction,
  textAnswer,
} from './compaction-kit.js';

let h: Harness;
afterEach(async () => h.close());

type Body = Record<string, unknown>;
type WireMessage = { role: string; content: string | null; tool_call_id?: string };

const messagesOf = (body: Body): WireMessage[] => body['messages'] as WireMessage[];
const compactionsIn = (events: readonly SessionEvent[]) =>
  events.flatMap((e) =>
    e.payload.case === 'contextCompaction' ? [{ seq: e.seq, ...e.payload.value }] : [],
  );
/** Ids of the tool calls recorded in `events` with seq in [from, to). */
const callIds = (events: readonly SessionEvent[], from: number, to: number): string[] =>
  events.flatMap((e) =>
    e.payload.case === 'toolCall' && e.seq >= from && e.seq < to ? [e.payload.value.callId] : [],
  );

describe('compaction against an OpenAI-compatible server', () => {
  it('keeps 200 steps under the budget by compacting, each request carrying summary and tail only', async () => {
    const budget = 6_000;
    const model = emittingModel(200, 1_500);
    h = await startHarness({ tools: [emitTool], contextBudget: () => budget, maxSteps: 250 });
    h.server.handle((body) => model.handle(body));
    await h.prompt('Run the long job.');
    await h.runtime.idle(h.sessionId);

    const events = await h.events();
    const requests = h.server.requests;
    const steps = requests.filter((r) => !isCompaction(r));
    expect(steps).toHaveLength(201);
    expect(events.filter((e) => e.payload.case === 'toolResult')).toHaveLength(200);
    const ends = events.flatMap((e) => (e.payload.case === 'turnEnd' ? [e.payload.value] : []));
    expect(ends.map((e) => e.reason)).toEqual([TurnEndReason.COMPLETED]);
    // Every request the provider saw fits the budget, by the provider's own count.
    const sizes = requests.map(fakeTokens);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    const compactions = compactionsIn(events);
    expect(compactions.length).toBeGreaterThanOrEqual(10);
    // A history longer than one summarising request fits takes more than one pass.
    expect(model.compactions).toBeGreaterThanOrEqual(compactions.length);

    for (const [n, compaction] of compactions.entries()) {
      expect(compaction.summary).toMatch(/^Summary \d+: /);
      expect(compaction).toMatchObject({
        reason: CompactionReason.AUTOMATIC,
        contextBudget: budget,
        model: 'fake-model',
        turn: 1,
        replacedFromSeq: n === 0 ? 0 : compactions[n - 1]!.keptFromSeq,
      });
      expect(compaction.tokensBefore).toBeGreaterThan(budget);
      expect(compaction.tokensAfter).toBeLessThan(budget);
      expect(compaction.keptFromSeq).toBeLessThanOrEqual(compaction.seq);
      expect(compaction.usage?.inputTokens).toBeGreaterThan(0);
    }

    // The step right after each compaction: the system prompt, the summary, then exactly
    // the calls from the compaction's cut on, none from before it.
    const summaryAt = (body: Body) => messagesOf(body)[1]?.content ?? '';
    for (const [n, compaction] of compactions.entries()) {
      const next = steps.find((body) => summaryAt(body).endsWith(compaction.summary));
      expect(next, `a step after compaction ${n + 1}`).toBeDefined();
      const sent = messagesOf(next!);
      expect(sent[0]?.role).toBe('system');
      expect(sent[1]).toEqual({
        role: 'user',
        content: `${compactionSummaryHeading}\n\n${compaction.summary}`,
      });
      const ids = sent.flatMap((m) => (m.tool_call_id === undefined ? [] : [m.tool_call_id]));
      expect(ids).toEqual(callIds(events, compaction.keptFromSeq, compaction.seq));
      expect(ids.some((id) => callIds(events, 0, compaction.keptFromSeq).includes(id))).toBe(false);
    }
  }, 120_000);

  it('compacts on request, with the instruction, before the next step of a running turn', async () => {
    const model = emittingModel(3, 200);
    h = await startHarness({ tools: [emitTool] });
    h.server.handle((body) => model.handle(body));
    const firstResult = h.waitFor((e) => e.payload.case === 'toolResult');
    await h.prompt('Run three steps.');
    await firstResult;
    expect(await h.runtime.compact(h.sessionId, 'keep the tags')).toEqual({ started: false });
    await h.runtime.idle(h.sessionId);

    const events = await h.events();
    const [compaction] = compactionsIn(events);
    expect(compaction).toMatchObject({
      reason: CompactionReason.REQUESTED,
      instruction: 'keep the tags',
      // A requested compaction keeps nothing whole: the summary replaces it all.
      keptFromSeq: compaction!.seq,
    });
    const ask = h.server.requests.find(isCompaction)!;
    expect(messagesOf(ask)[1]?.content).toContain(
      'The person asked the summary to keep this in particular: keep the tags',
    );
    // The turn went on after it, from the summary alone.
    const after = h.server.requests.slice(h.server.requests.indexOf(ask) + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(messagesOf(after[0]!).map((m) => m.role)).toEqual(['system', 'user']);
    expect(events.at(-1)?.payload).toMatchObject({
      case: 'turnEnd',
      value: { reason: TurnEndReason.COMPLETED },
    });
  });

  it('compacts on request between turns, and refuses when there is nothing to compact', async () => {
    h = await startHarness({ tools: [emitTool] });
    await expect(h.runtime.compact(h.sessionId, '')).rejects.toThrow(/nothing to compact/);
    h.server.reply(textReply(['Hello.']));
    await h.prompt('Say hello.');
    await h.runtime.idle(h.sessionId);
    h.server.handle((body) => textAnswer('The person asked for a hello; it was said.', body));
    expect(await h.runtime.compact(h.sessionId, '')).toEqual({ started: true });
    expect(h.runtime.isRunning(h.sessionId)).toBe(true);
    await h.runtime.idle(h.sessionId);
    expect(h.runtime.isRunning(h.sessionId)).toBe(false);
    const [compaction] = compactionsIn(await h.events());
    expect(compaction).toMatchObject({
      reason: CompactionReason.REQUESTED,
      summary: 'The person asked for a hello; it was said.',
      turn: 1,
    });
    await expect(h.runtime.compact(h.sessionId, '')).rejects.toThrow(
      /nothing to compact: no messages since its last compaction/,
    );
    await expect(h.runtime.compact(h.sessionId, 'x'.repeat(4097))).rejects.toThrow(/at most 4096/);
  });

  it('records an agent/error that says what to do when the summary request fails, and stays usable', async () => {
    const model = emittingModel(30, 1_500);
    h = await startHarness({ tools: [emitTool], contextBudget: () => 6_000 });
    let down = true;
    h.server.handle((body) =>
      down && isCompaction(body)
        ? { kind: 'status', status: 503, body: 'overloaded' }
        : model.handle(body),
    );
    await h.prompt('Run the long job.');
    await h.runtime.idle(h.sessionId);
    let events = await h.events();
    const error = events.find((e) => e.payload.case === 'agentError');
    expect(payloadOf(error, 'agentError')).toMatchObject({ code: 'compaction_failed' });
    expect(payloadOf(error, 'agentError').message).toMatch(
      /^Compacting the history failed: The model provider failed \(HTTP 503.*send a new prompt to try again\. If the model's context window is larger, raise its budget/,
    );
    expect(events.at(-1)?.payload).toMatchObject({
      case: 'turnEnd',
      value: { reason: TurnEndReason.ERROR },
    });
    expect(compactionsIn(events)).toEqual([]);
    // Every step request still fitted: the failed compaction sent no oversized step.
    expect(Math.max(...h.server.requests.map(fakeTokens))).toBeLessThanOrEqual(6_000);

    down = false;
    model.more(0);
    await h.prompt('Try again.');
    await h.runtime.idle(h.sessionId);
    events = await h.events();
    expect(compactionsIn(events)).toHaveLength(1);
    expect(events.at(-1)?.payload).toMatchObject({
      case: 'turnEnd',
      value: { reason: TurnEndReason.COMPLETED },
    });
  });

  it('cuts a large tool result for the model, saves it whole and keeps it whole in the journal', async () => {
    const model = emittingModel(1, 60_000);
    h = await startHarness({ tools: [emitTool], contextBudget: () => 6_000 });
    h.server.handle((body) => model.handle(body));
    await h.prompt('Emit a lot.');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    const whole = emitted(60_000, 't0-1');
    expect(result.content.map((b) => (b.block.case === 'text' ? b.block.value.text : ''))).toEqual([
      whole,
    ]);
    const sent = messagesOf(h.server.requests[1]!).find((m) => m.role === 'tool')!.content!;
    expect(sent.length).toBeLessThan(whole.length / 10);
    expect(sent.startsWith(whole.slice(0, 500))).toBe(true);
    expect(sent.endsWith(whole.slice(-200))).toBe(true);
    const path = /is saved in (\S+-result\.txt):/.exec(sent)?.[1];
    expect(path).toBeDefined();
    expect(await readFile(path!, 'utf8')).toBe(whole);
    const seq = events.find((e) => e.payload.case === 'toolResult')!.seq;
    expect(sent).toContain(`this session's journal keeps it whole (tool/result at seq ${seq})`);
  });

  it('says the budget is too small when the system prompt and tools do not leave room', async () => {
    h = await startHarness({ tools: [emitTool], contextBudget: () => 100 });
    await h.prompt('Hello?');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const error = payloadOf(
      events.find((e) => e.payload.case === 'agentError'),
      'agentError',
    );
    expect(error.code).toBe('context_budget_too_small');
    expect(error.message).toMatch(
      /^The context budget of fake-model \(100 tokens\) is too small to compact into: .*raise its budget in ~\/\.dsh\/config\.json \(\{"models": \{"fake-model": \{"contextBudget": N\}\}\}\)/,
    );
    expect(h.server.requests).toEqual([]);
  });
});
