import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computeHunks, isHunk, parseReadEnvelope } from '@dsh/card-models/contract';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read', () => {
  it.each([
    { name: 'a.ts', text: lines(5), args: {}, first: 1, last: 5, total: 5, lang: 'typescript' },
    {
      name: 'b.py',
      text: lines(10),
      args: { offset: 3, limit: 2 },
      first: 3,
      last: 4,
      total: 10,
      lang: 'python',
    },
    { name: 'c.txt', text: lines(2500), args: {}, first: 1, last: 2000, total: 2500, lang: '' },
    { name: 'd.md', text: 'no newline', args: {}, first: 1, last: 1, total: 1, lang: 'markdown' },
    {
      name: 'crlf.js',
      text: 'a\r\nb\r\n',
      args: {},
      first: 1,
      last: 2,
      total: 2,
      lang: 'javascript',
    },
    { name: 'empty.json', text: '', args: {}, first: 0, last: 0, total: 0, lang: 'json' },
    {
      name: 'Dockerfile',
      text: 'FROM x\n',
      args: {},
      first: 1,
      last: 1,
      total: 1,
      lang: 'dockerfile',
    },
  ])(
    '$name $args -> lines $first-$last of $total',
    async ({ name, text, args, first, last, total, lang }) => {
      writeFileSync(join(h.cwd, name), text);
      const { result, text: content, meta } = await h.run('read', { file_path: name, ...args });
      expect(result.isError).toBe(false);
      const envelope = parseReadEnvelope(content);
      const path = join(h.cwd, name);
      expect(envelope).toMatchObject({ path, firstLine: first, lastLine: last, totalLines: total });
      const expectedLines = text
        .replace(/\r/g, '')
        .split('\n')
        .slice(0, total)
        .slice(Math.max(first - 1, 0), last);
      expect(envelope?.lines).toEqual(expectedLines);
      expect(meta).toEqual({
        path,
        offset: first,
        lines: envelope?.lines.length,
        totalLines: total,
        lang,
      });
    },
  );

  it('renders the envelope exactly', async () => {
    writeFileSync(join(h.cwd, 'x.txt'), 'alpha\n\tbeta\n');
    const { text } = await h.run('read', { file_path: join(h.cwd, 'x.txt') });
    expect(text).toBe(
      `<file path="${h.cwd}/x.txt" lines="1-2" total="2">\n     1\talpha\n     2\t\tbeta\n</file>`,
    );
  });

  it('clips very long lines', async () => {
    writeFileSync(join(h.cwd, 'long.txt'), 'x'.repeat(5000));
    const { text } = await h.run('read', { file_path: 'long.txt' });
    expect(parseReadEnvelope(text)?.lines[0]).toMatch(
      /^x{2000}… \[line truncated: 5000 characters\]$/,
    );
  });

  it.each([
    { name: 'missing', setup: () => undefined, file: 'nope.txt', code: 'not_found' },
    {
      name: 'directory',
      setup: () => mkdirSync(join(h.cwd, 'dir')),
      file: 'dir',
      code: 'is_directory',
    },
    {
      name: 'binary',
      setup: () =>
        writeFileSync(join(h.cwd, 'bin.dat'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02])),
      file: 'bin.dat',
      code: 'binary_file',
    },
    {
      name: 'offset past the end',
      setup: () => writeFileSync(join(h.cwd, 'short.txt'), lines(3)),
      file: 'short.txt',
      code: 'invalid_arguments',
      offset: 9,
    },
  ])('fails clearly: $name', async ({ setup, file, code, offset }) => {
    setup();
    const { result, text, meta } = await h.run('read', { file_path: file, offset });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe(code);
    expect(text).toContain(file);
    expect(meta).toBeUndefined();
  });
});

describe('write', () => {
  it('creates a file and its folders; meta has oldText null', async () => {
    const { result, text, meta } = await h.run('write', {
      file_path: 'new/dir/f.txt',
      content: 'a\nb\n',
    });
    const path = join(h.cwd, 'new/dir/f.txt');
    expect(result.isError).toBe(false);
    expect(text).toBe(`Created ${path} (2 lines)`);
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
    expect(meta).toEqual({
      diffs: [{ path, oldText: null, newText: 'a\nb\n', hunks: computeHunks('', 'a\nb\n') }],
    });
  });

  it('overwrites a file; meta has both texts and hunks', async () => {
    writeFileSync(join(h.cwd, 'f.txt'), lines(10));
    const next = lines(10).replace('line 5', 'LINE FIVE');
    const { text, meta } = await h.run('write', { file_path: 'f.txt', content: next });
    expect(text).toMatch(/^Wrote .*f\.txt \(10 lines\)$/);
    const diff = (meta as { diffs: { oldText: string; hunks: unknown[] }[] }).diffs[0];
    expect(diff?.oldText).toBe(lines(10));
    expect(diff?.hunks).toHaveLength(1);
    expect(diff?.hunks.every(isHunk)).toBe(true);
    expect(diff?.hunks[0]).toMatchObject({ oldStart: 2, oldLines: 7, newStart: 2, newLines: 7 });
  });

  it('refuses to write over a directory', async () => {
    mkdirSync(join(h.cwd, 'd'));
    const { result } = await h.run('write', { file_path: 'd', content: 'x' });
    expect(result.error?.code).toBe('is_directory');
  });
});

describe('edit', () => {
  beforeEach(() => {
    writeFileSync(join(h.cwd, 'e.txt'), 'one two\nthree two\nfour\n');
  });

  it.each([
    { args: { old_string: 'four', new_string: '4' }, after: 'one two\nthree two\n4\n', count: 1 },
    {
      args: { old_string: 'two', new_string: '2', replace_all: true },
      after: 'one 2\nthree 2\nfour\n',
      count: 2,
    },
    { args: { old_string: 'one two\n', new_string: '' }, after: 'three two\nfour\n', count: 1 },
    {
      args: { old_string: 'four', new_string: '$& $1' },
      after: 'one two\nthree two\n$& $1\n',
      count: 1,
    },
  ])('$args', async ({ args, after, count }) => {
    const { result, text, meta } = await h.run('edit', { file_path: 'e.txt', ...args });
    expect(result.isError).toBe(false);
    expect(text).toContain(`replaced ${count} occurrence`);
    const path = join(h.cwd, 'e.txt');
    expect(readFileSync(path, 'utf8')).toBe(after);
    const before = 'one two\nthree two\nfour\n';
    expect(meta).toEqual({
      diffs: [{ path, oldText: before, newText: after, hunks: computeHunks(before, after) }],
    });
  });

  it.each([
    { args: { old_string: 'two', new_string: '2' }, code: 'ambiguous', message: 'occurs 2 times' },
    { args: { old_string: 'five', new_string: '5' }, code: 'no_match', message: 'not found' },
    {
      args: { old_string: 'four', new_string: 'four' },
      code: 'invalid_arguments',
      message: 'the same',
    },
    {
      args: { old_string: '', new_string: 'x' },
      code: 'invalid_arguments',
      message: 'must not be empty',
    },
  ])('fails: $code', async ({ args, code, message }) => {
    const { result, text } = await h.run('edit', { file_path: 'e.txt', ...args });
    expect(result.error?.code).toBe(code);
    expect(text).toContain(message);
    expect(readFileSync(join(h.cwd, 'e.txt'), 'utf8')).toBe('one two\nthree two\nfour\n');
  });

  it('fails for a missing file', async () => {
    const { result } = await h.run('edit', {
      file_path: 'none.txt',
      old_string: 'a',
      new_string: 'b',
    });
    expect(result.error?.code).toBe('not_found');
  });
});

describe('str_replace_editor', () => {
  it('creates, views, replaces and inserts; no meta', async () => {
    const created = await h.run('str_replace_editor', {
      command: 'create',
      path: 's.txt',
      file_text: 'a\nb\nc\n',
    });
    expect(created.text).toBe(`File created successfully at: ${join(h.cwd, 's.txt')}`);
    expect(created.result.metaJson).toBe('');

    const viewed = await h.run('str_replace_editor', { command: 'view', path: 's.txt' });
    expect(viewed.text).toBe('     1\ta\n     2\tb\n     3\tc');

    const replaced = await h.run('str_replace_editor', {
      command: 'str_replace',
      path: 's.txt',
      old_str: 'b',
      new_str: 'B',
    });
    expect(replaced.text).toContain('has been edited');
    expect(readFileSync(join(h.cwd, 's.txt'), 'utf8')).toBe('a\nB\nc\n');

    await h.run('str_replace_editor', {
      command: 'insert',
      path: 's.txt',
      insert_line: 0,
      new_str: 'top',
    });
    await h.run('str_replace_editor', {
      command: 'insert',
      path: 's.txt',
      insert_line: 4,
      new_str: 'end',
    });
    expect(readFileSync(join(h.cwd, 's.txt'), 'utf8')).toBe('top\na\nB\nc\nend\n');
    expect(existsSync(join(h.cwd, 's.txt'))).toBe(true);
  });

  it('views a folder two levels deep without hidden entries', async () => {
    mkdirSync(join(h.cwd, 'src/deep/deeper'), { recursive: true });
    mkdirSync(join(h.cwd, '.hidden'));
    writeFileSync(join(h.cwd, 'src/a.ts'), '');
    const { text } = await h.run('str_replace_editor', { command: 'view', path: '.' });
    expect(text.split('\n').slice(1)).toEqual(['src/', 'src/a.ts', 'src/deep/']);
  });

  it.each([
    { args: { command: 'create', path: 'exists.txt', file_text: 'x' }, code: 'already_exists' },
    { args: { command: 'str_replace', path: 'exists.txt', old_str: 'zzz' }, code: 'no_match' },
    { args: { command: 'str_replace', path: 'exists.txt', old_str: 'x' }, code: 'ambiguous' },
    {
      args: { command: 'insert', path: 'exists.txt', insert_line: 9, new_str: 'y' },
      code: 'invalid_arguments',
    },
    { args: { command: 'insert', path: 'exists.txt', new_str: 'y' }, code: 'invalid_arguments' },
    { args: { command: 'create', path: 'other.txt' }, code: 'invalid_arguments' },
    { args: { command: 'view', path: 'missing' }, code: 'not_found' },
    { args: { command: 'delete', path: 'exists.txt' }, code: 'invalid_arguments' },
  ])('fails: $args.command $code', async ({ args, code }) => {
    writeFileSync(join(h.cwd, 'exists.txt'), 'x\nx\n');
    const { result } = await h.run('str_replace_editor', args);
    expect(result.error?.code).toBe(code);
    expect(readFileSync(join(h.cwd, 'exists.txt'), 'utf8')).toBe('x\nx\n');
  });
});
