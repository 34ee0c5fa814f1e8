import { describe, expect, it } from 'vitest';
import { seqProblems } from '../lib/journal-file.js';
import { exitStatus, resultsTable, type Row } from '../lib/row.js';
import { latencyStats } from '../lib/stats.js';

const row = (over: Partial<Row>): Row => ({
  probe: 'p',
  tried: 1,
  failed: 0,
  lost: 0,
  required: true,
  note: '',
  ms: 1,
  ...over,
});

describe('exitStatus()', () => {
  it.each([
    ['every row passes', [row({})], 0],
    ['a required row fails', [row({ failed: 1 })], 1],
    ['a required row loses an event', [row({ lost: 1 })], 1],
    ['only a row that is not required fails', [row({ failed: 3, required: false })], 0],
    ['a failing row was skipped', [row({ failed: 1, skipped: 'needs root' })], 0],
  ])('is right when %s', (_name, rows, status) => {
    expect(exitStatus(rows)).toBe(status);
  });
});

describe('resultsTable()', () => {
  it('escapes pipes and marks verdicts', () => {
    const table = resultsTable([row({ note: 'a | b' }), row({ failed: 1, lost: null })]);
    expect(table).toContain('| pass | a \\| b |');
    expect(table).toContain('| 1 | – | yes | FAIL |');
  });
});

describe('seqProblems()', () => {
  it.each([
    [[0, 1, 2], { duplicates: 0, gaps: 0 }],
    [[0, 1, 1, 2], { duplicates: 1, gaps: 0 }],
    [[0, 2], { duplicates: 0, gaps: 1 }],
    [[], { duplicates: 0, gaps: 0 }],
  ])('counts %j', (seqs, expected) => {
    expect(seqProblems(seqs)).toEqual(expected);
  });
});

describe('latencyStats()', () => {
  it('takes percentiles by nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(latencyStats(samples)).toEqual({ count: 100, p50: 50, p99: 99, max: 100 });
    expect(latencyStats([])).toEqual({ count: 0, p50: 0, p99: 0, max: 0 });
  });
});
