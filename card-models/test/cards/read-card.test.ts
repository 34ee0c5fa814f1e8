import { describe, expect, it } from 'vitest';
import { readCard, type ReadCard } from '../../src/cards/read-card.js';
import { formatReadEnvelope } from '../../src/contract/read-envelope.js';
import {
  asStopped,
  asSubCall,
  asSubCallKeepingMeta,
  posix,
  text,
  toolBlock,
  windows,
} from './tool-block.js';

const file = '/home/ada/project/src/app.ts';
const shown = ['const a = 1;', 'const b = 2;', 'export { a, b };'];
const envelope = formatReadEnvelope({
  path: file,
  firstLine: 11,
  lastLine: 13,
  totalLines: 120,
  lines: shown,
});
const meta = { path: file, offset: 11, lines: 3, totalLines: 120, lang: 'typescript' };
const args = { file_path: file, offset: 11, limit: 3 };
const settled = (patch: { meta?: unknown; content?: string | ReturnType<typeof text>[] } = {}) =>
  toolBlock('read', args, { result: { content: envelope, meta, ...patch } });

function summary(card: ReadCard | undefined) {
  if (!card) return 'Generic';
  if (card.state === 'running') return card;
  return {
    where: [card.displayPath, card.offset, card.lineCount, card.totalLines, card.lang],
    rows: card.lines.map((l) => `${l.number}:${l.text}`),
  };
}

describe('readCard()', () => {
  it.each([
    {
      rule: 'running: summary with path and requested range',
      block: toolBlock('read', args),
      want: {
        kind: 'read',
        state: 'running',
        path: file,
        displayPath: 'src/app.ts',
        offset: 11,
        limit: 3,
      },
    },
    {
      rule: 'running without a range',
      block: toolBlock('read', { file_path: 'README.md' }),
      want: {
        kind: 'read',
        state: 'running',
        path: 'README.md',
        displayPath: 'README.md',
        offset: undefined,
        limit: undefined,
      },
    },
    {
      rule: 'settled: facts from meta, numbered lines from the envelope',
      block: settled(),
      want: {
        where: ['src/app.ts', 11, 3, 120, 'typescript'],
        rows: ['11:const a = 1;', '12:const b = 2;', '13:export { a, b };'],
      },
    },
    {
      rule: 'settled empty file: lines 0-0 and no rows',
      block: toolBlock(
        'read',
        { file_path: file },
        {
          result: {
            content: formatReadEnvelope({
              path: file,
              firstLine: 0,
              lastLine: 0,
              totalLines: 0,
              lines: [],
            }),
            meta: { path: file, offset: 1, lines: 0, totalLines: 0, lang: '' },
          },
        },
      ),
      want: { where: ['src/app.ts', 1, 0, 0, ''], rows: [] },
    },
    {
      rule: 'unknown meta fields are ignored',
      block: settled({ meta: { ...meta, encoding: 'utf8' } }),
      want: {
        where: ['src/app.ts', 11, 3, 120, 'typescript'],
        rows: ['11:const a = 1;', '12:const b = 2;', '13:export { a, b };'],
      },
    },
  ])('$rule', ({ block, want }) => {
    expect(summary(readCard(block, posix))).toEqual(want);
  });

  it.each([
    { why: 'missing meta', block: settled({ meta: undefined }) },
    { why: 'meta that is not JSON', block: settled({ meta: 'nope' }) },
    { why: 'meta without lang', block: settled({ meta: { ...meta, lang: undefined } }) },
    { why: 'a negative offset', block: settled({ meta: { ...meta, offset: -1 } }) },
    { why: 'a fractional line count', block: settled({ meta: { ...meta, lines: 2.5 } }) },
    { why: 'meta naming another path', block: settled({ meta: { ...meta, path: '/other' } }) },
    { why: 'meta with another offset', block: settled({ meta: { ...meta, offset: 12 } }) },
    { why: 'meta with another line count', block: settled({ meta: { ...meta, lines: 4 } }) },
    { why: 'meta with another total', block: settled({ meta: { ...meta, totalLines: 121 } }) },
    { why: 'content outside the envelope', block: settled({ content: 'const a = 1;' }) },
    { why: 'two text blocks', block: settled({ content: [text(envelope), text('more')] }) },
    { why: 'no content', block: settled({ content: [] }) },
    {
      why: 'an error result',
      block: toolBlock('read', args, { result: { isError: true, content: 'ENOENT', meta } }),
    },
    { why: 'an interrupted call', block: asStopped(toolBlock('read', args)) },
    { why: 'a running sub-call', block: asSubCall(toolBlock('read', args)) },
    { why: 'a settled sub-call', block: asSubCall(settled()) },
    { why: 'a sub-call even with meta', block: asSubCallKeepingMeta(settled()) },
    {
      why: 'a missing call head',
      block: toolBlock('read', args, { head: false, result: { content: envelope, meta } }),
    },
    { why: 'arguments that are not JSON', block: toolBlock('read', 'file_path=/x') },
    { why: 'arguments without file_path', block: toolBlock('read', { path: file }) },
    {
      why: 'an offset that is not a number',
      block: toolBlock('read', { file_path: file, offset: '10' }),
    },
    { why: 'another tool', block: toolBlock('write', { file_path: file, content: '' }) },
  ])('$why is Generic', ({ block }) => {
    expect(readCard(block, posix)).toBeUndefined();
  });

  it('shows eight lines in the conversation and every line in details', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `row ${i + 1}`);
    const content = formatReadEnvelope({
      path: file,
      firstLine: 1,
      lastLine: 30,
      totalLines: 30,
      lines,
    });
    const card = readCard(
      toolBlock(
        'read',
        { file_path: file },
        {
          result: {
            content,
            meta: { path: file, offset: 1, lines: 30, totalLines: 30, lang: 'plaintext' },
          },
        },
      ),
      posix,
    );
    expect(card?.state === 'ok' && card.previewLines.map((l) => l.number)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(card?.state === 'ok' && [card.hiddenLines, card.lines.length]).toEqual([22, 30]);
  });

  it('shows Windows paths relative to the cwd', () => {
    const path = 'C:\\Users\\ada\\project\\lib\\mod.py';
    const content = formatReadEnvelope({
      path,
      firstLine: 1,
      lastLine: 1,
      totalLines: 1,
      lines: ['x = 1'],
    });
    const card = readCard(
      toolBlock(
        'read',
        { file_path: path },
        {
          result: { content, meta: { path, offset: 1, lines: 1, totalLines: 1, lang: 'python' } },
        },
      ),
      windows,
    );
    expect(card?.displayPath).toBe('lib\\mod.py');
  });

  it('draws the same props for the conversation and details (snapshot)', () => {
    expect(readCard(settled(), posix)).toMatchSnapshot();
  });
});
