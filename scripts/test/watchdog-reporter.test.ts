import { describe, expect, it } from 'vitest';
import { judgeRun, type LastReport, type RunningFile } from '../watchdog-reporter.js';

const limits = { warnAfterMs: 3 * 60_000, failAfterMs: 10 * 60_000 };
const now = 100 * 60_000;
const minutesAgo = (minutes: number) => now - minutes * 60_000;

function file(name: string, minutes: number, test?: string): RunningFile {
  return { name, startedAt: minutesAgo(minutes), test };
}
function last(what: string, minutes: number): LastReport {
  return { what, at: minutesAgo(minutes) };
}

describe('judgeRun()', () => {
  it.each<[string, RunningFile[], LastReport, string[], string | undefined]>([
    ['nothing running, just heard', [], last('a.test.ts ended', 0), [], undefined],
    ['a file under the warning limit', [file('a.test.ts', 2)], last('x', 0), [], undefined],
    [
      'a file past the warning limit, still reporting',
      [file('a.test.ts', 3, 'pages back')],
      last('"pages back" started in a.test.ts', 1),
      ['still running: a.test.ts has run for 180 s, last reported "pages back"'],
      undefined,
    ],
    [
      'silence with no file running (a teardown that never ends)',
      [],
      last('b.test.ts ended', 4),
      ['no worker has reported anything for 240 s, since b.test.ts ended'],
      undefined,
    ],
    [
      'silence past the failure limit ends the workers and names the file',
      [file('c.test.ts', 11)],
      last('c.test.ts was taken by a worker', 11),
      ['still running: c.test.ts has run for 660 s, no test reported yet'],
      'no worker has reported anything for 660 s, since c.test.ts was taken by a worker ' +
        '(running: c.test.ts has run for 660 s, no test reported yet): ending the workers. ' +
        'Run that file alone to see where it stops.',
    ],
    [
      'a long file that keeps reporting never fails',
      [file('d.test.ts', 30, 'case 900')],
      last('"case 900" started in d.test.ts', 0),
      ['still running: d.test.ts has run for 1800 s, last reported "case 900"'],
      undefined,
    ],
  ])('%s', (_name, files, lastReport, warnings, failure) => {
    expect(judgeRun(files, lastReport, now, limits)).toEqual({ warnings, failure });
  });
});
