import type { Reporter, TestCase, TestModule } from 'vitest/node';
import {
  collectWorkerReports,
  descendants,
  enableWorkerReports,
  workerPids,
} from './worker-reports.js';

/** A test file a worker has taken and not finished, with the test it last reported. */
export interface RunningFile {
  readonly name: string;
  readonly startedAt: number;
  readonly test: string | undefined;
}

/** The last thing any worker reported, and when. */
export interface LastReport {
  readonly what: string;
  readonly at: number;
}

/** When a long file is named, and when a run that reports nothing has its workers ended. */
export interface WatchdogLimits {
  readonly warnAfterMs: number;
  readonly failAfterMs: number;
}

/** What the watchdog says at `now`. */
export interface WatchdogVerdict {
  readonly warnings: readonly string[];
  readonly failure: string | undefined;
}

/** The limits unless the reporter is given others: 3 minutes to be named, 10 of silence to end. */
export const defaultLimits: WatchdogLimits = {
  warnAfterMs: 3 * 60_000,
  failAfterMs: 10 * 60_000,
};

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

function describeFile(file: RunningFile, now: number): string {
  // A blocked worker reports nothing, so the test named is the last one it reported.
  const test = file.test === undefined ? 'no test reported yet' : `last reported "${file.test}"`;
  return `${file.name} has run for ${seconds(now - file.startedAt)}, ${test}`;
}

/**
 * Judges the run: each file running past `warnAfterMs` is named, and a run in which no
 * worker has reported anything for `failAfterMs` fails. Vitest bounds tests and hooks but
 * not a whole file (its collection, its environment's teardown), so a file that never
 * reports its end would otherwise hold the run until the CI job is killed.
 */
export function judgeRun(
  files: readonly RunningFile[],
  last: LastReport,
  now: number,
  limits: WatchdogLimits,
): WatchdogVerdict {
  const warnings = files
    .filter((file) => now - file.startedAt >= limits.warnAfterMs)
    .map((file) => `still running: ${describeFile(file, now)}`);
  const quiet = now - last.at;
  if (files.length === 0 && quiet >= limits.warnAfterMs) {
    warnings.push(`no worker has reported anything for ${seconds(quiet)}, since ${last.what}`);
  }
  if (quiet < limits.failAfterMs) return { warnings, failure: undefined };
  const running = files.map((file) => describeFile(file, now)).join('; ') || 'no file';
  const failure =
    `no worker has reported anything for ${seconds(quiet)}, since ${last.what} (running: ` +
    `${running}): ending the workers. Run that file alone to see where it stops.`;
  return { warnings, failure };
}

/**
 * A vitest reporter that names test files running for minutes, once a minute. When no
 * worker has reported anything past the failure limit, it prints the workers' diagnostic
 * reports (stack, open handles) and the processes under the run, then kills the workers:
 * vitest fails that file as a crashed worker and goes on, so a hang shows in CI's log as a
 * file and a test instead of a job timeout.
 */
export default class WatchdogReporter implements Reporter {
  private readonly limits: WatchdogLimits;
  private readonly running = new Map<string, RunningFile>();
  private last: LastReport = { what: 'the start of the run', at: Date.now() };
  private timer: NodeJS.Timeout | undefined;
  private ending = false;

  constructor(options: Partial<WatchdogLimits> = {}) {
    this.limits = { ...defaultLimits, ...options };
  }

  onInit(): void {
    enableWorkerReports();
  }

  onTestRunStart(): void {
    this.last = { what: 'the start of the run', at: Date.now() };
    this.timer = setInterval(() => this.check(), Math.min(60_000, this.limits.warnAfterMs));
    this.timer.unref();
  }

  onTestModuleQueued(module: TestModule): void {
    const name = `${module.project.name} ${module.relativeModuleId}`.trim();
    this.running.set(module.id, { name, startedAt: Date.now(), test: undefined });
    this.heard(`${name} was taken by a worker`);
  }

  onTestCaseReady(test: TestCase): void {
    const file = this.running.get(test.module.id);
    if (file !== undefined) this.running.set(test.module.id, { ...file, test: test.fullName });
    this.heard(`"${test.fullName}" started in ${file?.name ?? test.module.relativeModuleId}`);
  }

  onTestModuleEnd(module: TestModule): void {
    const name = this.running.get(module.id)?.name ?? module.relativeModuleId;
    this.running.delete(module.id);
    this.heard(`${name} ended`);
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  private heard(what: string): void {
    this.last = { what, at: Date.now() };
  }

  private check(): void {
    if (this.ending) return;
    const verdict = judgeRun([...this.running.values()], this.last, Date.now(), this.limits);
    for (const warning of verdict.warnings) process.stdout.write(`[watchdog] ${warning}\n`);
    if (verdict.failure !== undefined) void this.endWorkers(verdict.failure);
  }

  private async endWorkers(failure: string): Promise<void> {
    this.ending = true;
    const processes = descendants()
      .map((row) => `  ${row.pid} (parent ${row.ppid}) ${row.args.slice(0, 300)}`)
      .join('\n');
    const pids = workerPids();
    const reports = await collectWorkerReports(pids);
    process.stdout.write(
      `[watchdog] ${failure}\n${reports}\n[watchdog] processes:\n${processes}\n`,
    );
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
    // The killed workers' files never report their end; vitest fails them as crashed.
    this.running.clear();
    this.heard('the watchdog ended the workers');
    this.ending = false;
  }
}
