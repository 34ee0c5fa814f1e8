import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from '../src/read-lines.js';
import { scanLines } from '@dsh/journal-file';

const mib = 1 << 20;
const long = 'x'.repeat(mib + 17);

/** Files whose lines cross the 1 MiB chunk boundary, and what each scan must see. */
const cases = [
  { name: 'empty', text: '', lines: [], tail: '' },
  { name: 'torn tail', text: 'a\nbc', lines: ['a'], tail: 'bc' },
  { name: 'line longer than a chunk', text: `a\n${long}\nb\n`, lines: ['a', long, 'b'], tail: '' },
  {
    name: 'newline on the boundary',
    text: `${'y'.repeat(mib - 1)}\nz\n`,
    lines: ['y'.repeat(mib - 1), 'z'],
    tail: '',
  },
  { name: 'torn long tail', text: `a\n${long}`, lines: ['a'], tail: long },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-scan-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, text: string): Promise<string> {
  const path = join(dir, `${name.replaceAll(' ', '-')}.txt`);
  await writeFile(path, text);
  return path;
}

describe('scanLines()', () => {
  it.each(cases)('$name', async ({ name, text, lines, tail }) => {
    const fd = await open(await fileOf(name, text), 'r');
    try {
      const seen: { text: string; offset: number }[] = [];
      const scan = await scanLines(fd, 0, (line, offset) => {
        seen.push({ text: line.toString('utf8'), offset });
        return true;
      });
      expect(seen.map((l) => l.text)).toEqual(lines);
      expect(seen.map((l) => text.slice(l.offset, l.offset + l.text.length))).toEqual(lines);
      expect(scan).toEqual({
        end: text.length - tail.length,
        size: text.length,
        stopped: false,
      });
    } finally {
      await fd.close();
    }
  });

  it('stops at the line onLine refuses', async () => {
    const fd = await open(await fileOf('stop', `a\n${long}\nb\n`), 'r');
    try {
      const scan = await scanLines(fd, 0, (line) => line.length < 10);
      expect(scan).toEqual({ end: 2, size: mib, stopped: true });
    } finally {
      await fd.close();
    }
  });
});

describe('scanLines() with a line limit', () => {
  const text = `a\n${long}\nbb\n${'q'.repeat(40)}\n${long}`;
  it('passes only the head of a longer line, with its offset and full size', async () => {
    const fd = await open(await fileOf('limited', text), 'r');
    try {
      const seen: [string, number, number][] = [];
      const scan = await scanLines(
        fd,
        0,
        (line, offset, bytes) => {
          seen.push([line.toString('utf8'), offset, bytes]);
          return true;
        },
        { maxLineBytes: 10, headBytes: 4 },
      );
      expect(seen).toEqual([
        ['a', 0, 1],
        ['xxxx', 2, long.length],
        ['bb', long.length + 3, 2],
        ['qqqq', long.length + 6, 40],
      ]);
      expect(scan).toEqual({ end: long.length + 47, size: text.length, stopped: false });
    } finally {
      await fd.close();
    }
  });
});

describe('readLines()', () => {
  it.each(cases)('$name', async ({ name, text, lines, tail }) => {
    const path = await fileOf(name, text);
    const read: { text: string; end: number }[] = [];
    for await (const line of readLines(path, 0)) read.push(line);
    expect(read.map((l) => l.text)).toEqual(lines);
    expect(read.at(-1)?.end ?? 0).toBe(text.length - tail.length);
  });

  it('starts at a line offset', async () => {
    const path = await fileOf('offset', 'ab\ncd\nef\n');
    const read: { text: string; end: number }[] = [];
    for await (const line of readLines(path, 3)) read.push(line);
    expect(read).toEqual([
      { text: 'cd', end: 6 },
      { text: 'ef', end: 9 },
    ]);
  });
});
