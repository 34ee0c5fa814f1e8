import { describe, expect, it } from 'vitest';
import { judgeRunningFiles, type RunningFile } from '../watchdog-reporter.js';

const limits = { warnAfterMs: 3 * 60_000, failAfterMs: 12 * 60_000 };
const now = 100 * 60_000;

function file(name: string, minutesAgo: number, test?: string): RunningFile {
  return { name, startedAt: now - minutesAgo * 60_000, test };
}

describe('judgeRunningFiles', () => {
  it.each<[string, RunningFile[], string[], string | undefined]>([
    ['nothing running', [], [], undefined],
    ['a file under the warning limit', [file('a.test.ts', 2)], [], undefined],
    [
      'a file past the warning limit, in a test',
      [file('a.test.ts', 3, 'pages back')],
      ['still running: a.test.ts has run for 180 s, last reported "pages back"'],
      undefined,
    ],
    [
      'a file past the warning limit before its first test',
      [file('b.test.ts', 5)],
      ['still running: b.test.ts has run for 300 s, no test reported yet'],
      undefined,
    ],
    [
      'a file past the failure limit stops the run; the others are still named',
      [file('a.test.ts', 12, 'hangs'), file('b.test.ts', 4), file('c.test.ts', 13)],
      [
        'still running: b.test.ts has run for 240 s, no test reported yet',
        'still running: c.test.ts has run for 780 s, no test reported yet',
      ],
      'a.test.ts has run for 720 s, last reported "hangs": stopping the run. A test whose worker does ' +
        'not answer cannot be timed out by vitest; run that file alone to see where it stops.',
    ],
  ])('%s', (_name, files, warnings, failure) => {
    expect(judgeRunningFiles(files, now, limits)).toEqual({ warnings, failure });
  });
});
