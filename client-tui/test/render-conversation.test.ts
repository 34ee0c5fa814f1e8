import { createCardCache, createConversation } from '@dsh/card-models';
import { agentTurn, events, fixtureCwd, fixtureHome } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { createConversationRenderer, createTuiRegistry, plainText } from '../src/index.js';

/** A snapshot of `turns` turns whose answers wrap differently at each width. */
function longSnapshot(turns: number) {
  const payloads = Array.from({ length: turns }, (_, i) =>
    agentTurn({
      turn: i + 1,
      user: `question ${i} ${'with words that wrap '.repeat(4)}`,
      close: `answer ${i} ${'and a sentence that goes on '.repeat(6)}`,
    }),
  ).flat();
  return createConversation().apply({ kind: 'replace', events: events(payloads) });
}

const renderer = () =>
  createConversationRenderer({
    registry: createTuiRegistry(),
    card: { facts: { cwd: fixtureCwd, home: fixtureHome }, cards: createCardCache() },
  });

const widest = (lines: readonly (readonly { text: string }[])[]) =>
  Math.max(...lines.map((line) => plainText(line).length));

describe('createConversationRenderer(): a render at a new width within a budget', () => {
  it.each([
    ['the first item', 0],
    ['the last item', Number.MAX_SAFE_INTEGER],
  ])('draws the nodes around %s first and the rest on later renders', (_what, focusItem) => {
    const snapshot = longSnapshot(200);
    const r = renderer();
    const wide = r.render(snapshot, 120);
    expect(r.complete).toBe(true);
    const spent = { deadline: 0, focusItem };
    const first = r.render(snapshot, 40, { budget: spent });
    expect(r.complete).toBe(false);
    expect(first.map((item) => item.key)).toEqual(wide.map((item) => item.key));
    const focused = focusItem === 0 ? first[0] : first.at(-1);
    expect(widest(focused?.lines ?? [])).toBeLessThanOrEqual(40);
    expect(first.some((item) => widest(item.lines) > 40)).toBe(true);
    let rest = first;
    for (let i = 0; i < 1000 && !r.complete; i++) {
      rest = r.render(snapshot, 40, { budget: { deadline: performance.now() + 5, focusItem } });
    }
    expect(r.complete).toBe(true);
    expect(rest.every((item) => widest(item.lines) <= 40)).toBe(true);
    expect(rest.map((item) => item.lines)).toEqual(
      renderer()
        .render(snapshot, 40)
        .map((item) => item.lines),
    );
  });

  it('draws the rows of the budget below the focus whatever the deadline', () => {
    const snapshot = longSnapshot(100);
    const r = renderer();
    const wide = r.render(snapshot, 120);
    const focusItem = 20;
    const first = r.render(snapshot, 40, { budget: { deadline: 0, focusItem, rows: 30 } });
    expect(r.complete).toBe(false);
    let rows = 0;
    let item = focusItem;
    for (; rows < 30; item++) rows += first[item]?.lines.length ?? 30;
    expect(first.slice(focusItem, item).every((it) => widest(it.lines) <= 40)).toBe(true);
    expect(first.map((it) => it.key)).toEqual(wide.map((it) => it.key));
  });

  it('stands in one blank row for a node no width drew yet, until a later render draws it', () => {
    const all = events(
      Array.from({ length: 60 }, (_, i) =>
        agentTurn({
          turn: i + 1,
          user: `question ${i}`,
          close: `answer ${i} ${'words '.repeat(20)}`,
        }),
      ).flat(),
    );
    const half = Math.floor(all.length / 2);
    const conversation = createConversation();
    conversation.apply({ kind: 'replace', events: all.slice(half) });
    const r = renderer();
    const newer = r.render(conversation.snapshot, 120);
    // The older page arrives with the resize: its nodes were never drawn.
    const snapshot = conversation.apply({ kind: 'prepend', events: all.slice(0, half) });
    const focusItem = newer.length - 1;
    const first = r.render(snapshot, 40, { budget: { deadline: 0, focusItem, rows: 10 } });
    const undrawn = first.filter((item) => item.key.startsWith('undrawn:'));
    expect(undrawn.length).toBeGreaterThan(0);
    expect(undrawn.every((item) => item.lines.length === 1)).toBe(true);
    expect(widest(first.at(-1)?.lines ?? [])).toBeLessThanOrEqual(40);
    let rest = first;
    for (let i = 0; i < 1000 && !r.complete; i++) {
      rest = r.render(snapshot, 40, { budget: { deadline: performance.now() + 5, focusItem } });
    }
    expect(rest.map((item) => item.key)).toEqual(
      renderer()
        .render(snapshot, 40)
        .map((item) => item.key),
    );
  });

  it('without a budget draws every node at the new width at once', () => {
    const snapshot = longSnapshot(50);
    const r = renderer();
    r.render(snapshot, 120);
    const narrow = r.render(snapshot, 40);
    expect(r.complete).toBe(true);
    expect(narrow.every((item) => widest(item.lines) <= 40)).toBe(true);
  });
});
