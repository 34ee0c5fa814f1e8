import { beforeEach, describe, expect, it } from 'vitest';
import {
  loadDrafts,
  loadHistory,
  maxDrafts,
  maxHistory,
  maxStoredText,
  remember,
  saveDrafts,
} from '../../src/stores/input-memory.js';

beforeEach(() => localStorage.clear());

describe('saveDrafts()', () => {
  it.each([
    { name: 'keeps non-empty drafts', drafts: { a: 'x', b: '' }, order: ['a', 'b'], kept: ['a'] },
    {
      name: 'leaves out oversized ones',
      drafts: { a: 'x'.repeat(maxStoredText + 1), b: 'y' },
      order: ['a', 'b'],
      kept: ['b'],
    },
    { name: 'keeps only ordered ids', drafts: { a: 'x', b: 'y' }, order: ['b'], kept: ['b'] },
  ])('$name', ({ drafts, order, kept }) => {
    saveDrafts(new Map(Object.entries(drafts)), order);
    expect([...loadDrafts().keys()].sort()).toEqual(kept);
  });

  it('keeps the most recently edited drafts up to the limit', () => {
    const ids = Array.from({ length: maxDrafts + 5 }, (_, i) => `s${i}`);
    saveDrafts(new Map(ids.map((id) => [id, `draft ${id}`])), ids);
    const loaded = loadDrafts();
    expect(loaded.size).toBe(maxDrafts);
    expect(loaded.get('s0')).toBe('draft s0');
    expect(loaded.has(`s${maxDrafts}`)).toBe(false);
  });

  it('reads broken storage as no drafts', () => {
    localStorage.setItem('dsh-drafts', '{not json');
    expect(loadDrafts().size).toBe(0);
    localStorage.setItem('dsh-drafts', '["a"]');
    expect(loadDrafts().size).toBe(0);
  });
});

describe('remember()', () => {
  it.each([
    { name: 'appends', history: ['a'], text: 'b', next: ['a', 'b'] },
    { name: 'skips a repeat of the last', history: ['a', 'b'], text: 'b', next: ['a', 'b'] },
    { name: 'skips empty text', history: ['a'], text: '', next: ['a'] },
  ])('$name', ({ history, text, next }) => {
    expect(remember(history, text)).toEqual(next);
  });

  it('stores the newest entries up to the limit', () => {
    let history: string[] = [];
    for (let i = 0; i < maxHistory + 3; i++) history = remember(history, `m${i}`);
    expect(history).toHaveLength(maxHistory);
    expect(loadHistory()).toEqual(history);
    expect(loadHistory()[0]).toBe('m3');
  });
});
