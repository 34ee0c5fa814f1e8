import { describe, expect, it } from 'vitest';
import { diffCard, type DiffCard } from '../../src/cards/diff-card.js';
import { computeHunks } from '../../src/contract/hunks.js';
import {
  asStopped,
  asSubCall,
  asSubCallKeepingMeta,
  posix,
  toolBlock,
  windows,
} from './tool-block.js';

const file = '/home/ada/project/src/app.ts';
const oldText = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
const newText = oldText.replace('six', 'SIX');
const appliedMeta = {
  diffs: [{ path: file, oldText, newText, hunks: computeHunks(oldText, newText) }],
};
const createdMeta = {
  diffs: [{ path: file, oldText: null, newText: 'a\nb\n', hunks: computeHunks('', 'a\nb\n') }],
};
const writeArgs = { file_path: file, content: 'a\nb\n' };
const editArgs = { file_path: file, old_string: 'six', new_string: 'SIX' };
const ok = (meta?: unknown) => ({ result: { content: 'ok', meta } });

/** A compact view of the parts each rule is about. */
function summary(card: DiffCard | undefined) {
  if (!card) return 'Generic';
  return {
    state: card.state,
    source: card.source,
    created: card.created,
    displayPath: card.displayPath,
    rows: card.lines.map((l) => `${l.oldLine ?? '.'} ${l.newLine ?? '.'} ${l.kind[0]}${l.text}`),
    added: card.added,
    removed: card.removed,
  };
}

describe('diffCard()', () => {
  it.each([
    {
      rule: 'running write: added-only diff from file_path and content',
      block: toolBlock('write', writeArgs),
      want: {
        state: 'running',
        source: 'arguments',
        created: false,
        displayPath: 'src/app.ts',
        rows: ['. 1 aa', '. 2 ab'],
        added: 2,
        removed: 0,
      },
    },
    {
      rule: 'running edit: old_string -> new_string',
      block: toolBlock('edit', editArgs),
      want: {
        state: 'running',
        source: 'arguments',
        created: false,
        displayPath: 'src/app.ts',
        rows: ['1 . rsix', '. 1 aSIX'],
        added: 1,
        removed: 1,
      },
    },
    {
      rule: 'running str_replace_editor create: added-only from path and file_text',
      block: toolBlock('str_replace_editor', { command: 'create', path: file, file_text: 'x\n' }),
      want: {
        state: 'running',
        source: 'arguments',
        created: true,
        displayPath: 'src/app.ts',
        rows: ['. 1 ax'],
        added: 1,
        removed: 0,
      },
    },
    {
      rule: 'running str_replace_editor str_replace: old_str -> new_str',
      block: toolBlock('str_replace_editor', {
        command: 'str_replace',
        path: file,
        old_str: 'a\nb',
        new_str: 'a\nc',
      }),
      want: {
        state: 'running',
        source: 'arguments',
        created: false,
        displayPath: 'src/app.ts',
        rows: ['1 1 ca', '2 . rb', '. 2 ac'],
        added: 1,
        removed: 1,
      },
    },
    {
      rule: 'running str_replace_editor str_replace without new_str deletes old_str',
      block: toolBlock('str_replace_editor', {
        command: 'str_replace',
        path: file,
        old_str: 'gone',
      }),
      want: {
        state: 'running',
        source: 'arguments',
        created: false,
        displayPath: 'src/app.ts',
        rows: ['1 . rgone'],
        added: 0,
        removed: 1,
      },
    },
    {
      rule: 'settled write shows the applied hunks from meta (result wins over call)',
      block: toolBlock('write', writeArgs, ok(appliedMeta)),
      want: {
        state: 'ok',
        source: 'applied',
        created: false,
        displayPath: 'src/app.ts',
        rows: [
          '3 3 cthree',
          '4 4 cfour',
          '5 5 cfive',
          '6 . rsix',
          '. 6 aSIX',
          '7 7 cseven',
          '8 8 ceight',
          '9 9 cnine',
        ],
        added: 1,
        removed: 1,
      },
    },
    {
      rule: 'settled edit shows the applied hunks with file line numbers',
      block: toolBlock('edit', editArgs, ok(appliedMeta)),
      want: {
        state: 'ok',
        source: 'applied',
        created: false,
        displayPath: 'src/app.ts',
        rows: [
          '3 3 cthree',
          '4 4 cfour',
          '5 5 cfive',
          '6 . rsix',
          '. 6 aSIX',
          '7 7 cseven',
          '8 8 ceight',
          '9 9 cnine',
        ],
        added: 1,
        removed: 1,
      },
    },
    {
      rule: 'settled write that created the file falls back to the argument diff',
      block: toolBlock('write', writeArgs, ok(createdMeta)),
      want: {
        state: 'ok',
        source: 'arguments',
        created: true,
        displayPath: 'src/app.ts',
        rows: ['. 1 aa', '. 2 ab'],
        added: 2,
        removed: 0,
      },
    },
  ])('$rule', ({ block, want }) => {
    expect(summary(diffCard(block, posix))).toEqual(want);
  });

  const writeFallback = {
    state: 'ok',
    source: 'arguments',
    created: false,
    displayPath: 'src/app.ts',
    rows: ['. 1 aa', '. 2 ab'],
    added: 2,
    removed: 0,
  };
  const badHunk = { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['*x'] };
  const miscounted = { oldStart: 1, oldLines: 5, newStart: 1, newLines: 1, lines: ['-x', '+y'] };
  const entry = (patch: object) => ({ diffs: [{ ...appliedMeta.diffs[0], ...patch }] });

  it.each([
    { meta: undefined, why: 'missing meta' },
    { meta: '{not json', why: 'meta that is not JSON' },
    { meta: [], why: 'meta that is an array' },
    { meta: {}, why: 'meta without diffs' },
    { meta: { diffs: [] }, why: 'empty diffs' },
    { meta: { diffs: 'x' }, why: 'diffs that is not a list' },
    { meta: entry({ hunks: [badHunk] }), why: 'a hunk row without +/-/space' },
    { meta: entry({ hunks: [miscounted] }), why: 'hunk counts that do not add up' },
    { meta: entry({ oldText: 3 }), why: 'oldText of the wrong type' },
    { meta: entry({ path: '' }), why: 'an empty path' },
    { meta: entry({ newText: undefined }), why: 'a missing newText' },
  ])('settled write with $why falls back to the argument diff', ({ meta }) => {
    expect(summary(diffCard(toolBlock('write', writeArgs, ok(meta)), posix))).toEqual(
      writeFallback,
    );
  });

  it.each([
    { meta: undefined, why: 'missing meta' },
    { meta: '{not json', why: 'meta that is not JSON' },
    { meta: { diffs: [] }, why: 'empty diffs' },
    { meta: entry({ hunks: [badHunk] }), why: 'a malformed hunk' },
    { meta: entry({ hunks: [miscounted] }), why: 'hunk counts that do not add up' },
  ])('settled edit with $why is Generic', ({ meta }) => {
    expect(diffCard(toolBlock('edit', editArgs, ok(meta)), posix)).toBeUndefined();
  });

  it.each([
    {
      why: 'an error result',
      block: toolBlock('write', writeArgs, { result: { isError: true, meta: appliedMeta } }),
    },
    {
      why: 'an error edit',
      block: toolBlock('edit', editArgs, { result: { isError: true, meta: appliedMeta } }),
    },
    { why: 'an interrupted call', block: asStopped(toolBlock('edit', editArgs)) },
    { why: 'a running sub-call', block: asSubCall(toolBlock('write', writeArgs)) },
    { why: 'a settled sub-call', block: asSubCall(toolBlock('edit', editArgs, ok(appliedMeta))) },
    {
      why: 'a sub-call even with meta',
      block: asSubCallKeepingMeta(toolBlock('write', writeArgs, ok(appliedMeta))),
    },
    {
      why: 'a missing call head',
      block: toolBlock('write', writeArgs, { head: false, ...ok(appliedMeta) }),
    },
    { why: 'arguments that are not JSON', block: toolBlock('write', '{"file_path": "/x"') },
    { why: 'arguments that are a list', block: toolBlock('write', [file]) },
    { why: 'write without content', block: toolBlock('write', { file_path: file }) },
    { why: 'write with an empty path', block: toolBlock('write', { file_path: '', content: 'x' }) },
    {
      why: 'edit with a non-string new_string',
      block: toolBlock('edit', { ...editArgs, new_string: 1 }),
    },
    {
      why: 'settled write with malformed arguments',
      block: toolBlock('write', '[]', ok(appliedMeta)),
    },
    {
      why: 'settled str_replace_editor',
      block: toolBlock(
        'str_replace_editor',
        { command: 'create', path: file, file_text: 'x' },
        ok(),
      ),
    },
    {
      why: 'running str_replace_editor view',
      block: toolBlock('str_replace_editor', { command: 'view', path: file }),
    },
    {
      why: 'running str_replace_editor insert',
      block: toolBlock('str_replace_editor', {
        command: 'insert',
        path: file,
        insert_line: 1,
        new_str: 'x',
      }),
    },
    {
      why: 'str_replace with a non-string new_str',
      block: toolBlock('str_replace_editor', {
        command: 'str_replace',
        path: file,
        old_str: 'a',
        new_str: 2,
      }),
    },
    { why: 'another tool', block: toolBlock('read', { file_path: file }) },
  ])('$why is Generic', ({ block }) => {
    expect(diffCard(block, posix)).toBeUndefined();
  });

  it('shows eight rows in the conversation and every row in details', () => {
    const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const card = diffCard(toolBlock('write', { file_path: file, content }), posix);
    expect(card?.previewLines.map((l) => l.newLine)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(card?.hiddenLines).toBe(12);
    expect(card?.lines).toHaveLength(20);
  });

  it('numbers rows across several hunks and marks the hunk each row belongs to', () => {
    const before = Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join('\n');
    const after = before.replace('l2\n', 'L2\n').replace('l25\n', 'L25\n');
    const meta = {
      diffs: [{ path: file, oldText: before, newText: after, hunks: computeHunks(before, after) }],
    };
    const card = diffCard(toolBlock('edit', editArgs, ok(meta)), posix);
    expect(card?.hunks.map((h) => [h.oldStart, h.newStart, h.lines.length])).toEqual([
      [1, 1, 6],
      [22, 22, 8],
    ]);
    expect(
      card?.lines.filter((l) => l.kind !== 'context').map((l) => [l.hunk, l.oldLine ?? l.newLine]),
    ).toEqual([
      [0, 2],
      [0, 2],
      [1, 25],
      [1, 25],
    ]);
  });

  it('takes the meta entry for the call path when several files are listed', () => {
    const other = {
      path: '/elsewhere/b.ts',
      oldText: 'b',
      newText: 'c',
      hunks: computeHunks('b', 'c'),
    };
    const card = diffCard(
      toolBlock('edit', editArgs, ok({ diffs: [other, appliedMeta.diffs[0]] })),
      posix,
    );
    expect(card?.path).toBe(file);
  });

  it.each([
    { path: 'C:\\Users\\ada\\project\\src\\main.rs', facts: windows, want: 'src\\main.rs' },
    { path: 'c:/Users/ada/notes.md', facts: windows, want: '~\\notes.md' },
    { path: '\\\\server\\share\\x.txt', facts: windows, want: '\\\\server\\share\\x.txt' },
    { path: '/home/ada/other/x.txt', facts: posix, want: '~/other/x.txt' },
    { path: 'rel/x.txt', facts: posix, want: 'rel/x.txt' },
    { path: '/etc/hosts', facts: posix, want: '/etc/hosts' },
  ])('shows $path as $want and keeps the raw path', ({ path, facts, want }) => {
    const card = diffCard(toolBlock('write', { file_path: path, content: 'x' }), facts);
    expect([card?.path, card?.displayPath]).toEqual([path, want]);
  });

  it('draws the same props for the conversation and details (snapshot)', () => {
    expect(diffCard(toolBlock('edit', editArgs, ok(appliedMeta)), posix)).toMatchSnapshot();
  });
});
