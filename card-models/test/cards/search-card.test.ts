import { describe, expect, it } from 'vitest';
import { searchCard, type SearchCard } from '../../src/cards/search-card.js';
import { searchTruncationHint } from '../../src/contract/markers.js';
import {
  asStopped,
  asSubCall,
  asSubCallKeepingMeta,
  posix,
  toolBlock,
  windows,
} from './tool-block.js';

const grepArgs = { pattern: 'TODO', path: 'src' };
const grepMeta = {
  shape: 'matches',
  files: [
    {
      path: '/home/ada/project/src/a.ts',
      matches: [
        { lineNumber: 3, line: '// TODO a' },
        { lineNumber: 9, line: '// TODO b' },
      ],
    },
    { path: '/home/ada/project/src/b.ts', matches: [{ lineNumber: 1, line: 'TODO' }] },
  ],
  truncated: false,
  total: 3,
};
const globMeta = {
  shape: 'paths',
  paths: ['/home/ada/project/a.md', '/home/ada/notes.md'],
  truncated: false,
  total: 2,
};
const hint = searchTruncationHint(3, 50);
const ok = (meta: unknown, content = 'listing') => ({ result: { content, meta } });

function summary(card: SearchCard | undefined) {
  if (!card) return 'Generic';
  if (card.state === 'running') return ['running', card.tool, card.pattern, card.searchDisplayPath];
  return {
    rows: card.rows.map((r) =>
      r.kind === 'file' ? r.displayPath : `  ${r.lineNumber}: ${r.line}`,
    ),
    counts: [card.shown, card.total],
    truncated: card.truncated,
    hint: card.hint,
  };
}

describe('searchCard()', () => {
  it.each([
    {
      rule: 'running grep: argument summary',
      block: toolBlock('grep', grepArgs),
      want: ['running', 'grep', 'TODO', 'src'],
    },
    {
      rule: 'running glob without a path',
      block: toolBlock('glob', { pattern: '**/*.md' }),
      want: ['running', 'glob', '**/*.md', undefined],
    },
    {
      rule: 'grep: matches grouped by file with line numbers',
      block: toolBlock('grep', grepArgs, ok(grepMeta)),
      want: {
        rows: ['src/a.ts', '  3: // TODO a', '  9: // TODO b', 'src/b.ts', '  1: TODO'],
        counts: [3, 3],
        truncated: false,
        hint: undefined,
      },
    },
    {
      rule: 'glob: a path list',
      block: toolBlock('glob', { pattern: '**/*.md' }, ok(globMeta)),
      want: { rows: ['a.md', '~/notes.md'], counts: [2, 2], truncated: false, hint: undefined },
    },
    {
      rule: 'empty grep result is a valid card',
      block: toolBlock(
        'grep',
        grepArgs,
        ok({ shape: 'matches', files: [], truncated: false, total: 0 }, 'No matches'),
      ),
      want: { rows: [], counts: [0, 0], truncated: false, hint: undefined },
    },
    {
      rule: 'empty glob result is a valid card',
      block: toolBlock(
        'glob',
        { pattern: '*.zz' },
        ok({ shape: 'paths', paths: [], truncated: false, total: 0 }),
      ),
      want: { rows: [], counts: [0, 0], truncated: false, hint: undefined },
    },
    {
      rule: 'truncated: the recovery hint from the content',
      block: toolBlock(
        'grep',
        grepArgs,
        ok({ ...grepMeta, truncated: true, total: 50 }, `src/a.ts:3:x\n${hint}`),
      ),
      want: {
        rows: ['src/a.ts', '  3: // TODO a', '  9: // TODO b', 'src/b.ts', '  1: TODO'],
        counts: [3, 50],
        truncated: true,
        hint,
      },
    },
    {
      rule: 'truncated glob: the recovery hint from the content',
      block: toolBlock(
        'glob',
        { pattern: '*' },
        ok({ ...globMeta, truncated: true, total: 9 }, `a.md\n${hint}\n`),
      ),
      want: { rows: ['a.md', '~/notes.md'], counts: [2, 9], truncated: true, hint },
    },
    {
      rule: 'untruncated: no hint even when the content has one',
      block: toolBlock('grep', grepArgs, ok(grepMeta, `x\n${hint}`)),
      want: {
        rows: ['src/a.ts', '  3: // TODO a', '  9: // TODO b', 'src/b.ts', '  1: TODO'],
        counts: [3, 3],
        truncated: false,
        hint: undefined,
      },
    },
    {
      rule: 'truncated without a hint in the content: truncated, no hint',
      block: toolBlock(
        'glob',
        { pattern: '*' },
        ok({ ...globMeta, truncated: true, total: 9 }, 'a.md'),
      ),
      want: { rows: ['a.md', '~/notes.md'], counts: [2, 9], truncated: true, hint: undefined },
    },
  ])('$rule', ({ block, want }) => {
    expect(summary(searchCard(block, posix))).toEqual(want);
  });

  const file0 = grepMeta.files[0];
  it.each([
    { why: 'missing meta', block: toolBlock('grep', grepArgs, ok(undefined)) },
    { why: 'meta that is not JSON', block: toolBlock('grep', grepArgs, ok('{')) },
    {
      why: 'an unknown shape',
      block: toolBlock('grep', grepArgs, ok({ ...grepMeta, shape: 'tree' })),
    },
    { why: 'grep meta on glob', block: toolBlock('glob', { pattern: '*' }, ok(grepMeta)) },
    {
      why: 'a missing total',
      block: toolBlock('grep', grepArgs, ok({ ...grepMeta, total: undefined })),
    },
    {
      why: 'truncated that is not a boolean',
      block: toolBlock('grep', grepArgs, ok({ ...grepMeta, truncated: 'no' })),
    },
    {
      why: 'a file without a path',
      block: toolBlock('grep', grepArgs, ok({ ...grepMeta, files: [{ ...file0, path: 1 }] })),
    },
    {
      why: 'a line number of 0',
      block: toolBlock(
        'grep',
        grepArgs,
        ok({ ...grepMeta, files: [{ ...file0, matches: [{ lineNumber: 0, line: 'x' }] }] }),
      ),
    },
    {
      why: 'a match without its line',
      block: toolBlock(
        'grep',
        grepArgs,
        ok({ ...grepMeta, files: [{ ...file0, matches: [{ lineNumber: 2 }] }] }),
      ),
    },
    {
      why: 'a path that is not a string',
      block: toolBlock('glob', { pattern: '*' }, ok({ ...globMeta, paths: ['a', 3] })),
    },
    {
      why: 'an error result',
      block: toolBlock('grep', grepArgs, {
        result: { isError: true, content: 'bad regex', meta: grepMeta },
      }),
    },
    { why: 'an interrupted call', block: asStopped(toolBlock('glob', { pattern: '*' })) },
    { why: 'a running sub-call', block: asSubCall(toolBlock('grep', grepArgs)) },
    { why: 'a settled sub-call', block: asSubCall(toolBlock('grep', grepArgs, ok(grepMeta))) },
    {
      why: 'a sub-call even with meta',
      block: asSubCallKeepingMeta(toolBlock('glob', { pattern: '*' }, ok(globMeta))),
    },
    {
      why: 'a missing call head',
      block: toolBlock('grep', grepArgs, { head: false, ...ok(grepMeta) }),
    },
    { why: 'arguments that are not JSON', block: toolBlock('grep', 'TODO') },
    { why: 'arguments without a pattern', block: toolBlock('glob', { path: 'src' }) },
    {
      why: 'a path that is not a string',
      block: toolBlock('grep', { pattern: 'x', path: ['src'] }),
    },
    { why: 'another tool', block: toolBlock('read', { file_path: 'x' }) },
  ])('$why is Generic', ({ block }) => {
    expect(searchCard(block, posix)).toBeUndefined();
  });

  it('shows eight rows in the conversation and every row in details', () => {
    const paths = Array.from({ length: 12 }, (_, i) => `/home/ada/project/f${i}.ts`);
    const card = searchCard(
      toolBlock(
        'glob',
        { pattern: '*.ts' },
        ok({ shape: 'paths', paths, truncated: false, total: 12 }),
      ),
      posix,
    );
    expect(
      card?.state === 'ok' && [card.previewRows.length, card.hiddenRows, card.rows.length],
    ).toEqual([8, 4, 12]);
  });

  it('shows Windows paths relative to the cwd', () => {
    const meta = {
      shape: 'paths',
      paths: ['C:\\Users\\ada\\project\\src\\x.cs', 'D:\\y.cs'],
      truncated: false,
      total: 2,
    };
    const card = searchCard(
      toolBlock('glob', { pattern: '*.cs', path: 'C:\\Users\\ada' }, ok(meta)),
      windows,
    );
    expect(
      card?.state === 'ok' && [card.searchDisplayPath, ...card.paths.map((p) => p.displayPath)],
    ).toEqual(['~', 'src\\x.cs', 'D:\\y.cs']);
  });

  it('draws the same props for the conversation and details (snapshot)', () => {
    expect(
      searchCard(toolBlock('grep', grepArgs, ok({ ...grepMeta, truncated: true }, hint)), posix),
    ).toMatchSnapshot();
  });
});
