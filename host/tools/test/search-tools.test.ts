import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSearchTruncationHint, searchTruncationHint } from '@dsh/card-models/contract';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

function tree(files: Record<string, string | Buffer>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(h.cwd, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

const project = {
  '.git/HEAD': 'needle in git internals\n',
  '.gitignore': 'node_modules/\n*.log\nbuild\n!keep.log\n',
  'src/a.ts': 'const needle = 1;\nother\nNEEDLE loud\n',
  'src/b.js': 'no match here\n',
  'src/nested/.gitignore': 'secret.ts\n',
  'src/nested/secret.ts': 'needle hidden by nested gitignore\n',
  'src/nested/c.ts': 'x\nneedle deep\n',
  'node_modules/pkg/index.js': 'needle in deps\n',
  'build/out.js': 'needle built\n',
  'debug.log': 'needle logged\n',
  'keep.log': 'needle kept\n',
  '.github/workflow.yml': 'needle: dotfile\n',
  'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]),
};

describe('grep', () => {
  it.each([
    {
      name: 'respects .gitignore (nested too) and skips .git and binaries',
      args: { pattern: 'needle' },
      files: ['.github/workflow.yml', 'keep.log', 'src/a.ts', 'src/nested/c.ts'],
      total: 4,
    },
    {
      name: 'ignore_case',
      args: { pattern: 'needle', ignore_case: true },
      files: ['.github/workflow.yml', 'keep.log', 'src/a.ts', 'src/nested/c.ts'],
      total: 5,
    },
    {
      name: 'glob by base name',
      args: { pattern: 'needle', glob: '*.ts' },
      files: ['src/a.ts', 'src/nested/c.ts'],
      total: 2,
    },
    {
      name: 'path folder',
      args: { pattern: 'needle', path: 'src/nested' },
      files: ['src/nested/c.ts'],
      total: 1,
    },
    {
      name: 'path file',
      args: { pattern: 'NEEDLE', path: 'src/a.ts' },
      files: ['src/a.ts'],
      total: 1,
    },
    { name: 'regex', args: { pattern: '^const \\w+ = \\d' }, files: ['src/a.ts'], total: 1 },
  ])('$name', async ({ args, files, total }) => {
    tree(project);
    const { result, meta } = await h.run('grep', args);
    expect(result.isError).toBe(false);
    const m = meta as {
      shape: string;
      files: { path: string }[];
      truncated: boolean;
      total: number;
    };
    expect(m.shape).toBe('matches');
    expect(m.files.map((f) => f.path)).toEqual(files);
    expect(m.total).toBe(total);
    expect(m.truncated).toBe(false);
  });

  it('lists path:line:text and records line numbers', async () => {
    tree(project);
    const { text, meta } = await h.run('grep', { pattern: 'needle', path: 'src' });
    expect(text).toBe(
      'Found 2 matching lines\nsrc/a.ts:1:const needle = 1;\nsrc/nested/c.ts:2:needle deep',
    );
    expect((meta as { files: unknown[] }).files).toEqual([
      { path: 'src/a.ts', matches: [{ lineNumber: 1, line: 'const needle = 1;' }] },
      { path: 'src/nested/c.ts', matches: [{ lineNumber: 2, line: 'needle deep' }] },
    ]);
  });

  it('truncates at max_results and says how to recover', async () => {
    tree({ 'many.txt': Array.from({ length: 30 }, (_, i) => `hit ${i}`).join('\n') });
    const { text, meta } = await h.run('grep', { pattern: 'hit', max_results: 10 });
    expect(parseSearchTruncationHint(text)).toBe(searchTruncationHint(10, 30));
    expect(meta).toMatchObject({ truncated: true, total: 30 });
    expect((meta as { files: { matches: unknown[] }[] }).files[0]?.matches).toHaveLength(10);
  });

  it('says so when nothing matches', async () => {
    tree(project);
    const { result, text, meta } = await h.run('grep', { pattern: 'zebra' });
    expect(result.isError).toBe(false);
    expect(text).toBe('No matches for /zebra/ in .');
    expect(meta).toEqual({ shape: 'matches', files: [], truncated: false, total: 0 });
  });

  it.each([
    { args: { pattern: '(' }, code: 'invalid_arguments' },
    { args: { pattern: 'x', path: 'missing' }, code: 'not_found' },
  ])('fails: $code', async ({ args, code }) => {
    const { result } = await h.run('grep', args);
    expect(result.error?.code).toBe(code);
  });

  it('searches a generated tree of 5,000 files with an ignored heavy folder', async () => {
    const files: Record<string, string> = { '.gitignore': 'vendor/\n' };
    for (let i = 0; i < 5000; i++) {
      files[`pkg${i % 50}/mod${Math.floor(i / 50)}/file${i}.ts`] =
        `export const v${i} = ${i};\n${i % 500 === 0 ? 'MARK\n' : ''}`;
    }
    for (let i = 0; i < 500; i++) files[`vendor/lib${i}.js`] = 'MARK\n';
    tree(files);
    const { meta } = await h.run('grep', { pattern: 'MARK' });
    expect(meta).toMatchObject({ total: 10, truncated: false });
  });
});

describe('glob', () => {
  it.each([
    { pattern: '**/*.ts', path: undefined, paths: ['src/a.ts', 'src/nested/c.ts'] },
    { pattern: '*.log', path: undefined, paths: ['keep.log'] },
    { pattern: '*.ts', path: 'src', paths: ['src/a.ts'] },
    { pattern: '**/*.js', path: undefined, paths: ['src/b.js'] },
    { pattern: '**/*.yml', path: undefined, paths: ['.github/workflow.yml'] },
    { pattern: 'node_modules/**', path: undefined, paths: [] },
  ])('$pattern in $path', async ({ pattern, path, paths }) => {
    tree(project);
    const { result, text, meta } = await h.run('glob', { pattern, path });
    expect(result.isError).toBe(false);
    expect(meta).toEqual({ shape: 'paths', paths, truncated: false, total: paths.length });
    expect(text).toBe(
      paths.length === 0 ? `No files match ${pattern} in ${path ?? '.'}` : paths.join('\n'),
    );
  });

  it('truncates long listings', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) files[`f/${String(i).padStart(4, '0')}.txt`] = '';
    tree(files);
    const { text, meta } = await h.run('glob', { pattern: 'f/*.txt' });
    expect(parseSearchTruncationHint(text)).toBe(searchTruncationHint(1000, 1200));
    expect(meta).toMatchObject({ truncated: true, total: 1200 });
  });

  it.each([
    { args: { pattern: '/abs/**' }, code: 'invalid_arguments' },
    { args: { pattern: '*', path: 'missing' }, code: 'not_found' },
  ])('fails: $code', async ({ args, code }) => {
    const { result } = await h.run('glob', args);
    expect(result.error?.code).toBe(code);
  });
});
