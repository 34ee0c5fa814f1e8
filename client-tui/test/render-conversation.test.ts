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

  it('without a budget draws every node at the new width at once', () => {
    const snapshot = longSnapshot(50);
    const r = renderer();
    r.render(snapshot, 120);
    const narrow = r.render(snapshot, 40);
    expect(r.complete).toBe(true);
    expect(narrow.every((item) => widest(item.lines) <= 40)).toBe(true);
  });
});
