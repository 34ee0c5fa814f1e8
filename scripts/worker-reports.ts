import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the test workers write the diagnostic reports the watchdog asks for. */
export const reportDir = join(tmpdir(), `dsh-vitest-reports-${process.pid}`);

/** The signal that makes a worker write a diagnostic report (set by `enableWorkerReports`). */
const reportSignal = 'SIGUSR2';

/**
 * Makes every process started from here on (the test workers) write a Node diagnostic
 * report on SIGUSR2: its JavaScript stack and its open handles show what a stuck file waits on.
 */
export function enableWorkerReports(): void {
  mkdirSync(reportDir, { recursive: true });
  const flags = `--report-on-signal --report-signal=${reportSignal} --report-directory=${reportDir}`;
  process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${flags}`.trim();
}

interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly args: string;
}

function processRows(): ProcessRow[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], {
    encoding: 'utf8',
    timeout: 5_000,
  });
  return listing.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    return match === null
      ? []
      : [{ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }];
  });
}

/** This process's descendants, parents before children. */
export function descendants(): ProcessRow[] {
  const rows = processRows();
  const ours = new Set([process.pid]);
  const found: ProcessRow[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (ours.has(row.ppid) && !ours.has(row.pid)) {
        ours.add(row.pid);
        found.push(row);
        grew = true;
      }
    }
  }
  return found;
}

/** The vitest worker processes among this process's children. */
export function workerPids(): number[] {
  return processRows()
    .filter((row) => row.ppid === process.pid && row.args.includes('workers/forks.js'))
    .map((row) => row.pid);
}

interface Report {
  header?: { processId?: number };
  javascriptStack?: { message?: string; stack?: string[] };
  libuv?: { type?: string; is_active?: boolean; remoteEndpoint?: unknown; filename?: string }[];
}

function summarize(report: Report): string {
  const stack = report.javascriptStack?.stack ?? [];
  const handles = (report.libuv ?? [])
    .filter((handle) => handle.is_active === true)
    .map((handle) => handle.type ?? '?');
  const counts = new Map<string, number>();
  for (const type of handles) counts.set(type, (counts.get(type) ?? 0) + 1);
  const handleText = [...counts].map(([type, count]) => `${type} x${count}`).join(', ');
  return [
    `  worker ${report.header?.processId ?? '?'}: ${report.javascriptStack?.message ?? 'no stack'}`,
    ...stack.slice(0, 12).map((frame) => `    ${frame}`),
    `    active handles: ${handleText || 'none'}`,
  ].join('\n');
}

/** Asks each worker for a diagnostic report and summarizes what arrives within `waitMs`. */
export async function collectWorkerReports(
  pids: readonly number[],
  waitMs = 3_000,
): Promise<string> {
  for (const pid of pids) {
    try {
      process.kill(pid, reportSignal);
    } catch {
      // The worker ended meanwhile: nothing to report.
    }
  }
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  const summaries = readdirSync(reportDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(reportDir, name), 'utf8')) as Report)
    .filter((report) => pids.includes(report.header?.processId ?? -1))
    .map(summarize);
  return summaries.join('\n') || '  no worker wrote a report (its event loop does not run)';
}
