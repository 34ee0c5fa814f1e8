import { describe, expect, it } from 'vitest';
import { createCardCache } from '../../src/cards/index.js';
import { succeeded, withSubCalls } from './card-blocks.js';
import { posix, toolBlock, windows } from './tool-block.js';

describe('createCardCache()', () => {
  it('returns the same card for the same block and facts, deriving once', () => {
    const cache = createCardCache();
    const block = toolBlock('bash', { command: 'ls' });
    const first = cache.card(block, posix);
    expect(cache.card(block, posix)).toBe(first);
    expect(cache.card(block, { ...posix })).toBe(first);
    expect(cache.derivations).toBe(1);
  });

  it('derives again for a new block object or other facts', () => {
    const cache = createCardCache();
    const block = toolBlock('bash', { command: 'ls' });
    const first = cache.card(block, posix);
    expect(cache.card({ ...block }, posix)).not.toBe(first);
    expect(cache.card(block, windows)).not.toBe(first);
    expect(cache.derivations).toBe(3);
  });

  it('keeps the cards of unchanged sub-calls when the parent changes', () => {
    const cache = createCardCache();
    const parent = withSubCalls(toolBlock('run_code', { code: 'x', description: 'd' }), [
      toolBlock('bash', { command: 'ls' }),
      toolBlock('bash', { command: 'pwd' }),
    ]);
    const before = cache.card(parent, posix);
    expect(cache.derivations).toBe(3);
    const settledChild = succeeded('bash', { command: 'pwd' }, 'x');
    const after = cache.card(
      {
        ...parent,
        subCalls: [parent.subCalls[0]!, { ...settledChild, parentCallId: parent.callId }],
      },
      posix,
    );
    expect(after).not.toBe(before);
    expect(after.subCalls[0]).toBe(before.subCalls[0]);
    expect(after.subCalls[1]).not.toBe(before.subCalls[1]);
    expect(cache.derivations).toBe(5);
  });

  it('keeps separate counts per cache', () => {
    const a = createCardCache();
    const b = createCardCache();
    a.card(toolBlock('x', {}), posix);
    expect(b.derivations).toBe(0);
  });
});
