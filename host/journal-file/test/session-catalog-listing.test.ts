import * as fs from 'node:fs/promises';
import { mkdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userMessage } from '@dsh/fixtures';
import { SessionCatalog } from '../src/session-catalog.js';
import { tempDir, writeJournal } from './journal-test-kit.js';

// The real `readdir`, counted: how often the catalog reads a dir's names.
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return { ...real, readdir: vi.fn(real.readdir) };
});
const readdirCalls = () => vi.mocked(fs.readdir).mock.calls.length;

let dir: string;
let cleanup: () => Promise<void>;
let catalog: SessionCatalog | undefined;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await catalog?.close();
  catalog = undefined;
  await cleanup();
});

describe('SessionCatalog listings', () => {
  it('lists at start a dir that its first sync then trusts, and reads it again once it changes', async () => {
    const data = join(dir, 'data');
    await mkdir(data);
    await writeJournal(data, 'first', [userMessage('one')]);
    // Sub-second, well past the margin: the start's listing may be trusted.
    const stamp = (Date.now() - 5_000) / 1000 + 0.0000005;
    await utimes(data, stamp, stamp);
    catalog = new SessionCatalog(data, [], () => {}, false);
    const before = readdirCalls();
    await catalog.start();
    expect(readdirCalls() - before).toBe(1);
    await catalog.sync();
    expect(readdirCalls() - before).toBe(1);
    await writeJournal(data, 'second', [userMessage('two')]);
    await catalog.sync();
    expect(readdirCalls() - before).toBe(2);
    expect([...catalog.entries.keys()].sort()).toEqual(['first', 'second']);
  });
});
