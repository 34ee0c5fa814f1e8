import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { IdleTicker } from '../src/session/idle-ticker.js';

describe('IdleTicker', () => {
  it('wakes a wait once after idleMs, never a cancelled one', async () => {
    const ticker = new IdleTicker(40);
    const start = performance.now();
    const woken: [string, number][] = [];
    ticker.add(() => woken.push(['kept', performance.now() - start]));
    const cancelled = ticker.add(() => woken.push(['cancelled', performance.now() - start]));
    ticker.cancel(cancelled);
    await sleep(150);
    expect(woken.map(([name]) => name)).toEqual(['kept']);
    expect(woken[0]![1]).toBeGreaterThanOrEqual(40);
  });

  it('wakes each wait idleMs after its own start, in order', async () => {
    const ticker = new IdleTicker(60);
    const woken: [string, number][] = [];
    const add = (name: string) => {
      const start = performance.now();
      ticker.add(() => woken.push([name, performance.now() - start]));
    };
    add('first');
    await sleep(30);
    add('second');
    await vi.waitFor(() => expect(woken).toHaveLength(2), { timeout: 2_000 });
    expect(woken.map(([name]) => name)).toEqual(['first', 'second']);
    for (const [, after] of woken) expect(after).toBeGreaterThanOrEqual(60);
  });
});
