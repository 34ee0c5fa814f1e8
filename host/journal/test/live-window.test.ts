import { userMessage } from '@dsh/fixtures';
import { describe, expect, it, vi } from 'vitest';
import { LiveWindow, type WindowReader } from '../src/live-window.js';
import { createMemoryStorage } from './memory-backend.js';

/** A reader that takes everything (`keeps up`) or nothing, with its limit. */
interface ReaderPlan {
  readonly keepsUp: boolean;
  readonly limit: number;
}

describe('LiveWindow', () => {
  it.each<[string, ReaderPlan[], (held: number) => boolean]>([
    [
      'drops what every reader took',
      [
        { keepsUp: true, limit: 10_000 },
        { keepsUp: true, limit: 10_000 },
      ],
      (held) => held < 1_024,
    ],
    [
      'keeps what a reader within its limit has not taken',
      [
        { keepsUp: true, limit: 10_000 },
        { keepsUp: false, limit: 10_000 },
      ],
      (held) => held === 3_000,
    ],
    [
      'stops keeping for a reader past its limit',
      [
        { keepsUp: true, limit: 10_000 },
        { keepsUp: false, limit: 100 },
      ],
      (held) => held < 1_024,
    ],
  ])('%s', async (_name, plans, expected) => {
    const backend = await createMemoryStorage().open();
    const log = await backend.create({ cwd: '/w', sessionId: 's' });
    const window = new LiveWindow(log);
    const readers = await Promise.all(plans.map((plan) => window.join(plan.limit)));
    let cursor = 0;
    const take = (): void => {
      plans.forEach((plan, i) => {
        const reader = readers[i]!;
        if (plan.keepsUp && !window.behind(reader)) window.take(reader, cursor);
      });
      cursor = window.end;
    };
    // Seqs and positions agree here: the window opened on an empty log.
    for (let seq = 0; seq < 3_000; seq += 100) {
      const batch = Array.from({ length: 100 }, (_, i) => userMessage(`e${seq + i}`));
      await log.append(batch, { expectedSeq: seq });
      await vi.waitFor(() => expect(window.end).toBe(seq + 100), { interval: 1 });
      take();
    }
    expect(expected(window.held)).toBe(true);
    const slow = readers[plans.findIndex((plan) => !plan.keepsUp)] as WindowReader | undefined;
    if (slow !== undefined) expect(window.behind(slow)).toBe(slow.limit < 3_000);
    for (const reader of readers) window.leave(reader);
    expect(window.done).toBe(true);
    await vi.waitFor(() => expect(log.tailCount).toBe(0));
    await backend.close();
  });
});
