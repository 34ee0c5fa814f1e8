import { assistantMessage, events, turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { sessionTurns, turnRange } from '../../src/format/turn-range.js';

// As the agent journals a turn: the input, then `turn/start`, the steps, `turn/end`.
const session = events([
  userMessage('one'),
  turnStart(1),
  assistantMessage({ turn: 1 }, ['first']),
  turnEnd(1),
  userMessage('two'),
  turnStart(2),
  assistantMessage({ turn: 2 }, ['second']),
  turnEnd(2),
  userMessage('three'),
  turnStart(3),
  assistantMessage({ turn: 3 }, ['third, still running']),
]);

describe('turnRange()', () => {
  it.each([
    { from: 1, to: 1, seqs: [0, 1, 2, 3] },
    { from: 2, to: 3, seqs: [4, 5, 6, 7, 8, 9, 10] },
    { from: 3, to: 3, seqs: [8, 9, 10] },
  ])('turns $from to $to', ({ from, to, seqs }) => {
    const result = turnRange(session, from, to);
    expect(result.ok && result.events.map((e) => e.seq)).toEqual(seqs);
  });

  it.each([
    {
      from: 2,
      to: 1,
      error: 'Pick a first turn no later than the last one (the session has turns 1–3).',
    },
    { from: 1, to: 9, error: 'The session has turns 1–3: pick turns inside that range.' },
  ])('refuses $from to $to with a message naming the fix', ({ from, to, error }) => {
    expect(turnRange(session, from, to)).toEqual({ ok: false, error });
  });

  it('says a session without turns has none to pick', () => {
    expect(turnRange([], 1, 1)).toEqual({
      ok: false,
      error: 'This session has no turns yet: export the whole session instead.',
    });
  });
});

describe('sessionTurns()', () => {
  it('lists the turns that started', () => {
    expect(sessionTurns(session)).toEqual([1, 2, 3]);
  });
});
