import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computeHunks, type Hunk } from '@dsh/card-models/contract';
import { fileDiff, wholeFileHunks } from '../src/file-diff.js';
import { lagDuring } from './event-loop-lag.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Applies hunks to a text's lines (no fuzz): what a diff card shows must rebuild the file. */
function apply(oldText: string, hunks: Hunk[]): string {
  const lines = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  let offset = 0;
  for (const hunk of hunks) {
    const at = Math.max(0, hunk.oldStart - 1) + offset;
    const removed = hunk.lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
    const added = hunk.lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
    expect(lines.slice(at, at + removed.length)).toEqual(removed);
    lines.splice(at, removed.length, ...added);
    offset += added.length - removed.length;
  }
  return lines.join('\n');
}

const numbered = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';

describe('fileDiff()', () => {
  it.each([
    { name: 'a small edit', old: 'a\nb\nc\n', next: 'a\nB\nc\n' },
    { name: 'a created file', old: null, next: numbered(600, 'new') },
    {
      name: 'one change in a long file',
      old: numbered(3000, 'x'),
      next: numbered(3000, 'x').replace('x line 1500\n', 'changed\n'),
    },
    {
      name: 'no trailing newline',
      old: numbered(500, 'y').trimEnd(),
      next: `${numbered(500, 'y')}tail`,
    },
    { name: 'everything removed', old: numbered(450, 'z'), next: '' },
  ])('records exactly the hunks computeHunks gives: $name', async ({ old, next }) => {
    const diff = await fileDiff('/f', old, next);
    expect(diff.hunks).toEqual(computeHunks(old ?? '', next));
  });

  it('diffs a regenerated file off the event loop, into hunks that rebuild it', async () => {
    const old = numbered(5000, 'old');
    const next = numbered(5000, 'new');
    const { value, worst } = await lagDuring(() => fileDiff('/f', old, next));
    expect(apply(old, value.hunks)).toBe(next.replace(/\n$/, ''));
    // Computed in place, this diff alone blocks the loop for many seconds.
    expect(worst).toBeLessThan(1000);
  });

  it('writes a regenerated file without holding up the host', async () => {
    writeFileSync(join(h.cwd, 'big.txt'), numbered(5000, 'old'));
    const { value, worst } = await lagDuring(() =>
      h.run('write', { file_path: 'big.txt', content: numbered(5000, 'new') }),
    );
    expect(value.result.isError).toBe(false);
    const meta = value.meta as { diffs: { hunks: Hunk[] }[] };
    expect(apply(numbered(5000, 'old'), meta.diffs[0]?.hunks ?? [])).toBe(
      numbered(5000, 'new').replace(/\n$/, ''),
    );
    expect(worst).toBeLessThan(1000);
  });
});

describe('wholeFileHunks()', () => {
  it.each([
    { old: '', next: '', hunks: [] },
    {
      old: 'a\n',
      next: '',
      hunks: [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0, lines: ['-a'] }],
    },
    {
      old: 'a\nb',
      next: 'c\n',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 1, lines: ['-a', '-b', '+c'] }],
    },
  ])('$old -> $next', ({ old, next, hunks }) => {
    expect(wholeFileHunks(old, next)).toEqual(hunks);
  });
});

describe('web_fetch HTML conversion', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      if (req.url === '/nested') res.end(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`);
      else res.end(`<ul>${'<li>item</li>'.repeat(100_000)}</ul>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each(['/nested', '/long-list'])('converts %s off the event loop', async (path) => {
    const { value, worst } = await lagDuring(() => h.run('web_fetch', { url: `${base}${path}` }));
    if (value.result.isError) {
      expect(['fetch_failed', 'timeout']).toContain(value.result.error?.code);
      expect(value.text).toContain(`turning the HTML of ${base}${path} into text`);
    } else {
      expect(value.text).toContain(path === '/nested' ? 'x' : 'item');
    }
    // Converted in place, either page blocks the loop for seconds.
    expect(worst).toBeLessThan(1000);
  });
});
