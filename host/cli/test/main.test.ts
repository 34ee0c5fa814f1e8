import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/index.js';

afterEach(() => vi.restoreAllMocks());

/** Runs `main` in this process and returns its exit code and what it wrote. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const code = await main(argv, {});
  return { code, stdout, stderr };
}

describe('main()', () => {
  it.each([
    { argv: ['--version'], code: 0, stdout: /^dsh \d+\.\d+\.\d+\n$/, stderr: /^$/ },
    { argv: ['--help'], code: 0, stdout: /^usage: dsh/, stderr: /^$/ },
    { argv: ['--no-such-flag'], code: 2, stdout: /^$/, stderr: /^dsh: .*--no-such-flag/ },
    { argv: ['tui', '--help'], code: 0, stdout: /^usage: dsh tui/, stderr: /^$/ },
  ])('returns $code for $argv without exiting the process', async (row) => {
    const result = await run(row.argv);
    expect(result.code).toBe(row.code);
    expect(result.stdout).toMatch(row.stdout);
    expect(result.stderr).toMatch(row.stderr);
  });
});
