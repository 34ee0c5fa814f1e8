import { describe, expect, it } from 'vitest';
import { createConversationView, plainText, seg, type ConversationItem } from '../src/index.js';

const item = (key: string, rows: number): ConversationItem => {
  const lines = Array.from({ length: rows }, (_, i) => [seg(`${key}.${i}`)]);
  return { key, lines, details: () => lines };
};
const items = (keys: string, rows = 2) => [...keys].map((key) => item(key, rows));
const shown = (view: ReturnType<typeof createConversationView>) =>
  view.frame().lines.map(plainText);

describe('createConversationView()', () => {
  it('follows the bottom as items arrive', () => {
    const view = createConversationView(3);
    view.setItems(items('ab'));
    expect(shown(view)).toEqual(['a.1', 'b.0', 'b.1']);
    view.setItems(items('abc'));
    expect(shown(view)).toEqual(['b.1', 'c.0', 'c.1']);
    expect(view.following).toBe(true);
  });

  it('keeps the first visible row in place when older items are prepended', () => {
    const view = createConversationView(3);
    view.setItems(items('cdef'));
    view.top();
    expect(shown(view)).toEqual(['c.0', 'c.1', 'd.0']);
    view.setItems(items('abcdef'));
    expect(shown(view)).toEqual(['c.0', 'c.1', 'd.0']);
    expect(view.frame().atTop).toBe(false);
  });

  it('does not move while scrolled up and new items arrive', () => {
    const view = createConversationView(2);
    view.setItems(items('abcd'));
    view.scroll(-4);
    const before = shown(view);
    view.setItems(items('abcdef'));
    expect(shown(view)).toEqual(before);
    expect(view.following).toBe(false);
  });

  it.each([
    ['j from the bottom stays on the last item', 1, 'd'],
    ['k selects the previous item', -1, 'c'],
    ['k three times reaches the first', -3, 'a'],
    ['k past the top stops at the first', -9, 'a'],
  ])('%s', (_name, delta, key) => {
    const view = createConversationView(2);
    view.setItems(items('abcd'));
    view.select(delta);
    expect(view.items[view.selected]?.key).toBe(key);
    expect(view.frame().owners).toContain(view.selected);
  });

  it('End follows again and the selection keeps its key across updates', () => {
    const view = createConversationView(2);
    view.setItems(items('abcd'));
    view.select(-2);
    view.setItems(items('xabcd'));
    expect(view.items[view.selected]?.key).toBe('b');
    view.follow();
    expect(view.following).toBe(true);
    expect(shown(view)).toEqual(['d.0', 'd.1']);
  });

  it('a shorter pane after a resize still shows the bottom', () => {
    const view = createConversationView(4);
    view.setItems(items('abc'));
    view.setHeight(1);
    expect(shown(view)).toEqual(['c.1']);
  });
});
