import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bodyOf, hunkNotation, putFile as put, type CardCase } from './card-case.js';
import type { CardRun } from './contract-harness.js';

const source = 'export const a = 1;\nexport function f() {\n  return a;\n}\n';

/** The diff card shows exactly the hunks of `meta.diffs[0]`. */
function expectAppliedHunks(run: CardRun): void {
  const meta = JSON.parse(run.result.metaJson) as {
    diffs: {
      hunks: {
        oldStart: number;
        oldLines: number;
        newStart: number;
        newLines: number;
        lines: string[];
      }[];
    }[];
  };
  const hunks = meta.diffs[0]?.hunks ?? [];
  const body = bodyOf(run, 'diff');
  expect(body.hunks.map(({ lines: _lines, ...range }) => range)).toEqual(
    hunks.map(({ lines: _lines, ...range }) => range),
  );
  expect(body.hunks.map((hunk) => hunkNotation(hunk.lines))).toEqual(hunks.map((h) => h.lines));
}

/** read, write, edit, str_replace_editor: file cards and their failures. */
export const fileCases: CardCase[] = [
  {
    name: 'read a whole file',
    tool: 'read',
    args: { file_path: 'read/app.ts' },
    setup: (env) => put(env, 'read/app.ts', source),
    running: 'read',
    settled: 'read',
    errorCode: '',
    check: (run, { h }) => {
      const path = join(h.cwd, 'read/app.ts');
      expect(run.runningCard.body).toEqual({
        kind: 'read',
        state: 'running',
        path: 'read/app.ts',
        displayPath: 'read/app.ts',
        offset: undefined,
        limit: undefined,
      });
      const lines = source
        .split('\n')
        .slice(0, 4)
        .map((text, i) => ({ number: i + 1, text }));
      expect(run.card.body).toEqual({
        kind: 'read',
        state: 'ok',
        path,
        displayPath: 'read/app.ts',
        offset: 1,
        lineCount: 4,
        totalLines: 4,
        lang: 'typescript',
        lines,
        previewLines: lines,
        hiddenLines: 0,
      });
    },
  },
  {
    name: 'read a slice (offset, limit)',
    tool: 'read',
    args: { file_path: 'read/slice.ts', offset: 2, limit: 2 },
    setup: (env) => put(env, 'read/slice.ts', source),
    running: 'read',
    settled: 'read',
    errorCode: '',
    check: (run) => {
      expect(run.runningCard.body).toMatchObject({ offset: 2, limit: 2 });
      expect(bodyOf(run, 'read')).toMatchObject({
        offset: 2,
        lineCount: 2,
        totalLines: 4,
        lines: [
          { number: 2, text: 'export function f() {' },
          { number: 3, text: '  return a;' },
        ],
      });
    },
  },
  {
    name: 'read an empty file',
    tool: 'read',
    args: { file_path: 'read/empty.txt' },
    setup: (env) => put(env, 'read/empty.txt', ''),
    running: 'read',
    settled: 'read',
    errorCode: '',
    check: (run) =>
      expect(bodyOf(run, 'read')).toMatchObject({
        offset: 0,
        lineCount: 0,
        totalLines: 0,
        lang: '',
        lines: [],
      }),
  },
  ...(
    [
      ['a missing file', 'read/missing.txt', 'not_found'],
      ['a folder', 'read', 'is_directory'],
      ['a binary file', 'read/blob.bin', 'binary_file'],
    ] as const
  ).map(([what, file, code]): CardCase => ({
    name: `read ${what}: Generic`,
    tool: 'read',
    args: { file_path: file },
    setup: (env) => put(env, 'read/blob.bin', 'a\u0000b'),
    running: 'read',
    settled: 'generic',
    errorCode: code,
  })),
  {
    name: 'write creates a file: the argument diff, created',
    tool: 'write',
    args: { file_path: 'made/new/file.txt', content: 'one\ntwo\n' },
    running: 'diff',
    settled: 'diff',
    errorCode: '',
    check: (run, { h }) => {
      expect(readFileSync(join(h.cwd, 'made/new/file.txt'), 'utf8')).toBe('one\ntwo\n');
      expect(run.runningCard.body).toMatchObject({ state: 'running', created: false, added: 2 });
      expect(bodyOf(run, 'diff')).toMatchObject({
        tool: 'write',
        state: 'ok',
        path: 'made/new/file.txt',
        displayPath: 'made/new/file.txt',
        source: 'arguments',
        created: true,
        lineNumbersInFile: true,
        added: 2,
        removed: 0,
      });
      expectAppliedHunks(run);
    },
  },
  {
    name: 'write overwrites a file: the applied hunks from meta',
    tool: 'write',
    args: { file_path: 'over/notes.txt', content: 'alpha\nBETA\ngamma\n' },
    setup: (env) => put(env, 'over/notes.txt', 'alpha\nbeta\ngamma\n'),
    running: 'diff',
    settled: 'diff',
    errorCode: '',
    check: (run, { h }) => {
      expect(bodyOf(run, 'diff')).toMatchObject({
        state: 'ok',
        path: join(h.cwd, 'over/notes.txt'),
        displayPath: 'over/notes.txt',
        source: 'applied',
        created: false,
        added: 1,
        removed: 1,
      });
      expectAppliedHunks(run);
    },
  },
  {
    name: 'edit: the applied hunks from meta, with file line numbers',
    tool: 'edit',
    args: { file_path: 'edit/app.ts', old_string: 'return a;', new_string: 'return a + 1;' },
    setup: (env) => put(env, 'edit/app.ts', source),
    running: 'diff',
    settled: 'diff',
    errorCode: '',
    check: (run, { h }) => {
      expect(run.runningCard.body).toMatchObject({ source: 'arguments', lineNumbersInFile: false });
      const body = bodyOf(run, 'diff');
      expect(body).toMatchObject({
        tool: 'edit',
        path: join(h.cwd, 'edit/app.ts'),
        source: 'applied',
        lineNumbersInFile: true,
        added: 1,
        removed: 1,
      });
      expect(body.lines.find((line) => line.kind === 'removed')).toMatchObject({
        text: '  return a;',
        oldLine: 3,
      });
      expectAppliedHunks(run);
    },
  },
  {
    name: 'edit with no match: Generic',
    tool: 'edit',
    args: { file_path: 'edit/none.ts', old_string: 'absent', new_string: 'x' },
    setup: (env) => put(env, 'edit/none.ts', source),
    running: 'diff',
    settled: 'generic',
    errorCode: 'no_match',
  },
  {
    name: 'edit with several matches: Generic',
    tool: 'edit',
    args: { file_path: 'edit/twice.ts', old_string: 'export', new_string: 'x' },
    setup: (env) => put(env, 'edit/twice.ts', source),
    running: 'diff',
    settled: 'generic',
    errorCode: 'ambiguous',
  },
  {
    name: 'str_replace_editor create: a diff while running, Generic once settled',
    tool: 'str_replace_editor',
    args: { command: 'create', path: 'sre/new.txt', file_text: 'hi\n' },
    running: 'diff',
    settled: 'generic',
    errorCode: '',
    check: (run) => expect(run.runningCard.body).toMatchObject({ created: true, added: 1 }),
  },
  {
    name: 'str_replace_editor view: Generic',
    tool: 'str_replace_editor',
    args: { command: 'view', path: 'read/view.ts' },
    setup: (env) => put(env, 'read/view.ts', source),
    running: 'generic',
    settled: 'generic',
    errorCode: '',
  },
];
