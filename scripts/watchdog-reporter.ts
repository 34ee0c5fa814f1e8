import { execFileSync } from 'node:child_process';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** A test file that has started and not ended, with the test it last reached. */
export interface RunningFile {
  readonly name: string;
  readonly startedAt: number;
  readonly test: string | undefined;
}

/** When a running file is reported, and when the whole run is stopped for it. */
export interface WatchdogLimits {
  readonly warnAfterMs: number;
  readonly failAfterMs: number;
}

/** What the watchdog says about the running files at `now`. */
export interface WatchdogVerdict {
  readonly warnings: readonly string[];
  readonly failure: string | undefined;
}

/** The limits unless the reporter is given others: a file named after 3 minutes, the run stopped after 12. */
export const ciLimits: WatchdogLimits = { warnAfterMs: 3 * 60_000, failAfterMs: 12 * 60_000 };

function describeFile(file: RunningFile, now: number): string {
  const seconds = Math.round((now - file.startedAt) / 1000);
  // A blocked worker reports nothing, so the test named is the last one it reported.
  const test = file.test === undefined ? 'no test reported yet' : `last reported "${file.test}"`;
  return `${file.name} has run for ${seconds} s, ${test}`;
}

/**
 * Judges the running files: each one past `warnAfterMs` is named, and the first one past
 * `failAfterMs` stops the run. A test that blocks its worker's event loop (a synchronous
 * child process, an endless loop) cannot be timed out by vitest, so only this can end it.
 */
export function judgeRunningFiles(
  files: Iterable<RunningFile>,
  now: number,
  limits: WatchdogLimits,
): WatchdogVerdict {
  const warnings: string[] = [];
  let failure: string | undefined;
  for (const file of files) {
    const elapsed = now - file.startedAt;
    if (elapsed >= limits.failAfterMs && failure === undefined) {
      failure =
        `${describeFile(file, now)}: stopping the run. A test whose worker does not answer ` +
        'cannot be timed out by vitest; run that file alone to see where it stops.';
    } else if (elapsed >= limits.warnAfterMs) {
      warnings.push(`still running: ${describeFile(file, now)}`);
    }
  }
  return { warnings, failure };
}

/** The processes under this one (the test workers and what they started), for the log. */
function workerProcesses(): string {
  let listing: string;
  try {
    listing = execFileSync('ps', ['-eo', 'pid=,ppid=,etime=,args='], {
      encoding: 'utf8',
      timeout: 5_000,
    });
  } catch (error) {
    return `ps failed: ${String(error)}`;
  }
  const rows = listing
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 4);
  const ours = new Set([String(process.pid)]);
  const lines: string[] = [];
  for (const [pid = '', ppid = '', etime = '', ...args] of rows) {
    if (!ours.has(ppid)) continue;
    ours.add(pid);
    lines.push(`  ${pid} (parent ${ppid}, running ${etime}) ${args.join(' ').slice(0, 300)}`);
  }
  return lines.join('\n');
}

/**
 * A vitest reporter that names test files running for minutes, once a minute, and ends the
 * run with the process tree when one runs past the failure limit, so a hang shows in CI's
 * log as the file and the test where it happened instead of as a job timeout.
 */
export default class WatchdogReporter implements Reporter {
  private readonly running = new Map<string, RunningFile>();
  private timer: NodeJS.Timeout | undefined;

  private readonly limits: WatchdogLimits;

  constructor(options: Partial<WatchdogLimits> = {}) {
    this.limits = { ...ciLimits, ...options };
  }

  onTestRunStart(): void {
    this.timer = setInterval(() => this.check(), Math.min(60_000, this.limits.warnAfterMs));
    this.timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    const name = `${module.project.name} ${module.relativeModuleId}`.trim();
    this.running.set(module.id, { name, startedAt: Date.now(), test: undefined });
  }

  onTestCaseReady(test: TestCase): void {
    const file = this.running.get(test.module.id);
    if (file !== undefined) this.running.set(test.module.id, { ...file, test: test.fullName });
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.id);
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const verdict = judgeRunningFiles(this.running.values(), Date.now(), this.limits);
    for (const warning of verdict.warnings) process.stdout.write(`[watchdog] ${warning}\n`);
    if (verdict.failure === undefined) return;
    process.stdout.write(`[watchdog] ${verdict.failure}\n${workerProcesses()}\n`);
    process.exit(1);
  }
}
