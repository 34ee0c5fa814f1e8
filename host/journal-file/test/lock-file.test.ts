import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLockFile, describeHolder, lockHolder } from '../src/index.js';
import { tempDir } from './journal-test-kit.js';
import { mountTmpfs, tmpfsMissing } from './tmpfs.js';

let dir: string;
let cleanup: () => Promise<void>;
let path: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  path = join(dir, 'the.lock');
});
afterEach(async () => {
  await cleanup();
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** A lock written by someone else: these fields over a live-looking holder. */
function lockText(fields: Record<string, unknown>): string {
  return JSON.stringify({
    pid: process.pid,
    purpose: 'dsh serve',
    startedAt: '2026-01-01T00:00:00.000Z',
    host: hostname(),
    startTicks: '',
    bootId: '',
    nonce: 'theirs',
    ...fields,
  });
}

describe('acquireLockFile()', () => {
  it('creates the lock whole with its holder, refuses a second taker, and releases', async () => {
    const first = await acquireLockFile(path, 'dsh serve');
    expect(first.kind).toBe('acquired');
    const content = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(content).toMatchObject({ pid: process.pid, purpose: 'dsh serve', host: hostname() });
    expect(content['startTicks']).toMatch(/^\d+$/);
    expect(new Date(content['startedAt'] as string).getTime()).toBeLessThanOrEqual(Date.now());
    const second = await acquireLockFile(path, 'dsh import');
    expect(second).toMatchObject({
      kind: 'held',
      holder: { pid: process.pid, purpose: 'dsh serve' },
    });
    expect(await lockHolder(path)).toMatchObject({ pid: process.pid });
    if (first.kind === 'acquired') await first.release();
    expect(await readdir(dir)).toEqual([]);
    expect(await lockHolder(path)).toBeUndefined();
    expect((await acquireLockFile(path, 'again')).kind).toBe('acquired');
  });

  const stale: [string, () => string][] = [
    ['a dead pid', () => lockText({ pid: deadPid() })],
    ['a reused pid (same pid, another start time)', () => lockText({ startTicks: '1' })],
    ['another boot of this machine', () => lockText({ bootId: 'not-this-boot' })],
    ['a bare pid of a dead process (older import lock)', () => `${deadPid()}`],
  ];
  it.each(stale)('takes over a stale lock of %s', async (_name, text) => {
    await writeFile(path, text());
    const taken = await acquireLockFile(path, 'dsh serve');
    expect(taken.kind).toBe('acquired');
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  const live: [string, () => string, RegExp][] = [
    [
      'a live process',
      () => lockText({}),
      /^pid \d+ \(dsh serve, since 2026-01-01T00:00:00.000Z\)$/,
    ],
    ['a bare live pid', () => `${process.pid}`, /^pid \d+ \(dsh\)$/],
    [
      'another host (it cannot be checked)',
      () => lockText({ pid: deadPid(), host: 'elsewhere' }),
      /^pid \d+ on host elsewhere \(dsh serve/,
    ],
  ];
  it.each(live)('leaves the lock of %s alone', async (_name, text, described) => {
    const before = text();
    await writeFile(path, before);
    const result = await acquireLockFile(path, 'dsh serve');
    expect(result.kind).toBe('held');
    if (result.kind === 'held') expect(describeHolder(result.holder)).toMatch(described);
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('lets exactly one of many concurrent takers in, also over a stale lock', async () => {
    for (const start of [undefined, lockText({ pid: deadPid() })]) {
      if (start !== undefined) await writeFile(path, start);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => acquireLockFile(path, `taker ${i}`)),
      );
      const acquired = results.filter((r) => r.kind === 'acquired');
      expect(acquired).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'held')).toHaveLength(11);
      const holder = JSON.parse(await readFile(path, 'utf8')) as { purpose: string };
      expect(results.findIndex((r) => r.kind === 'acquired')).toBe(
        Number(holder.purpose.slice('taker '.length)),
      );
      if (acquired[0]?.kind === 'acquired') await acquired[0].release();
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('releases only its own lock', async () => {
    const mine = await acquireLockFile(path, 'dsh serve');
    const theirs = lockText({ nonce: 'someone else' });
    await writeFile(path, theirs);
    if (mine.kind === 'acquired') await mine.release();
    expect(await readFile(path, 'utf8')).toBe(theirs);
  });

  const missing = tmpfsMissing();
  it.skipIf(missing !== undefined)('reports read_only on a read-only file system', async () => {
    const disk = await mountTmpfs(1024 * 1024);
    try {
      disk.remount('ro');
      const result = await acquireLockFile(join(disk.dir, 'the.lock'), 'dsh serve');
      expect(result).toMatchObject({ kind: 'read_only', error: { code: 'EROFS' } });
    } finally {
      await disk.unmount();
    }
  });
});
