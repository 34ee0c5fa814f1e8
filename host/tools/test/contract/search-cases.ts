import { searchTruncationHint } from '@dsh/card-models/contract';
import { expect } from 'vitest';
import { bodyOf, putFile as put, type CardCase } from './card-case.js';

/** grep and glob: matches, truncation with its hint, empty results, paths. */
export const searchCases: CardCase[] = [
  {
    name: 'grep: matches grouped by file',
    tool: 'grep',
    args: { pattern: 'needle', path: 'grep' },
    setup: (env) => {
      put(env, 'grep/a.txt', 'needle one\nhay\nneedle two\n');
      put(env, 'grep/deep/b.txt', 'a needle\n');
    },
    running: 'search',
    settled: 'search',
    errorCode: '',
    check: (run) => {
      expect(run.runningCard.body).toMatchObject({
        state: 'running',
        pattern: 'needle',
        searchPath: 'grep',
        searchDisplayPath: 'grep',
      });
      expect(bodyOf(run, 'search')).toMatchObject({
        state: 'ok',
        shape: 'matches',
        total: 3,
        shown: 3,
        truncated: false,
        hint: undefined,
        files: [
          {
            path: 'grep/a.txt',
            displayPath: 'grep/a.txt',
            matches: [
              { lineNumber: 1, line: 'needle one' },
              { lineNumber: 3, line: 'needle two' },
            ],
          },
          { displayPath: 'grep/deep/b.txt', matches: [{ lineNumber: 1, line: 'a needle' }] },
        ],
      });
    },
  },
  {
    name: 'grep truncated: the recovery hint',
    tool: 'grep',
    args: { pattern: 'pin', path: 'many', max_results: 2 },
    setup: (env) => put(env, 'many/pins.txt', 'pin 1\npin 2\npin 3\npin 4\npin 5\n'),
    running: 'search',
    settled: 'search',
    errorCode: '',
    check: (run) =>
      expect(bodyOf(run, 'search')).toMatchObject({
        total: 5,
        shown: 2,
        truncated: true,
        hint: searchTruncationHint(2, 5),
      }),
  },
  {
    name: 'grep without matches: an empty card',
    tool: 'grep',
    args: { pattern: 'zz-no-such-text-zz', path: 'grep' },
    setup: (env) => put(env, 'grep/a.txt', 'needle one\nhay\nneedle two\n'),
    running: 'search',
    settled: 'search',
    errorCode: '',
    check: (run) =>
      expect(bodyOf(run, 'search')).toMatchObject({
        files: [],
        rows: [],
        total: 0,
        truncated: false,
      }),
  },
  {
    name: 'grep with an invalid pattern: Generic',
    tool: 'grep',
    args: { pattern: '(unclosed' },
    running: 'search',
    settled: 'generic',
    errorCode: 'invalid_arguments',
  },
  {
    name: 'glob: a path list',
    tool: 'glob',
    args: { pattern: '**/*.md', path: 'globbed' },
    setup: (env) => {
      put(env, 'globbed/b.md', '');
      put(env, 'globbed/x/a.md', '');
      put(env, 'globbed/c.txt', '');
    },
    running: 'search',
    settled: 'search',
    errorCode: '',
    check: (run) =>
      expect(bodyOf(run, 'search')).toMatchObject({
        shape: 'paths',
        paths: [
          { path: 'globbed/b.md', displayPath: 'globbed/b.md' },
          { path: 'globbed/x/a.md', displayPath: 'globbed/x/a.md' },
        ],
        total: 2,
        truncated: false,
      }),
  },
  {
    name: 'glob without matches: an empty card',
    tool: 'glob',
    args: { pattern: '*.nothing', path: 'globbed' },
    setup: (env) => put(env, 'globbed/b.md', ''),
    running: 'search',
    settled: 'search',
    errorCode: '',
    check: (run) => expect(bodyOf(run, 'search')).toMatchObject({ paths: [], total: 0 }),
  },
];
