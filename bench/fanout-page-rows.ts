import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';
import { percentile, since, type BenchRow } from './bench-row.js';
import { startHost, type BenchHost } from './catalog-bench.js';
import {
  benchLimits,
  clientProcessCount,
  isType,
  load,
  readerLabel,
  spread,
  startClientProcesses,
} from './client-processes.js';
import type { ClientReader } from './fanout-clients.js';
import { mainThreadSchedMs, processCpuMs } from './model-host.js';
import { benchDataDir, longJournal } from './page-bench.js';
import { cpuProfiling, monotonicUs, profileRows, type ProfileWindow } from './fanout-host.js';

const section = 'fanout';

/** The data dir of the page rows: a copy of the cached long journal (a host may append). */
const pageDir = join(benchDataDir, 'fanout');

/**
 * Tail `Page` (default size) of an `events`-event session on a fresh `dsh serve` process,
 * from the client processes for `seconds` at concurrency 1 and 200: pages/s, p50, p99,
 * and the host's CPU per page (from /proc, independent of the machine's load).
 */
export async function fanoutPageRows(
  dir: string,
  { events, seconds }: { events: number; seconds: number },
): Promise<BenchRow[]> {
  const sessionId = `long-${events}`;
  await mkdir(pageDir, { recursive: true });
  const path = join(pageDir, `${sessionId}.jsonl`);
  if ((await stat(path).catch(() => undefined)) === undefined) {
    await copyFile(await longJournal(events), path);
  }
  const { cpuProf, nodeArgs } = cpuProfiling('page');
  const host = await startHost(pageDir, join(dir, 'page-home'), benchLimits, nodeArgs);
  const rows: BenchRow[] = [];
  let window: ProfileWindow | undefined;
  try {
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1', useBinaryFormat: true }),
    );
    const start = performance.now();
    await client.page({ sessionId }, { timeoutMs: 300_000 });
    const firstMs = since(start);
    for (let i = 0; i < 5; i++) await client.page({ sessionId });
    const label = `${events.toLocaleString('en-US')} events`;
    rows.push({
      section,
      name: `first tail Page of the page host, ${label}`,
      value: firstMs,
      unit: 'ms',
      note: `a fresh host; the rows below start after it and 5 more pages; ${load()}`,
    });
    const loads: [number, ClientReader][] = [
      [1, 'wire'],
      [200, 'wire'],
      [200, 'connect'],
    ];
    for (const [concurrency, reader] of loads) {
      const fromUs = monotonicUs();
      rows.push(...(await pageLoad(host, sessionId, label, concurrency, reader, seconds)));
      if (reader === 'wire') {
        window = { fromUs, toUs: monotonicUs(), label: `tail Page, concurrency ${concurrency}` };
      }
    }
  } finally {
    await host.stop();
  }
  if (cpuProf !== undefined && window !== undefined) {
    rows.push(...(await profileRows(cpuProf, window)));
  }
  return rows;
}

/** How long the page load runs before it is counted: 200 connections open meanwhile. */
const warmUpMs = 2_000;

/**
 * `concurrency` tail pages in flight from the client processes for `seconds`, counted
 * after `warmUpMs`.
 */
async function pageLoad(
  host: BenchHost,
  sessionId: string,
  label: string,
  concurrency: number,
  reader: ClientReader,
  seconds: number,
): Promise<BenchRow[]> {
  const clients = startClientProcesses(
    spread(concurrency, clientProcessCount).map((count) => ({
      kind: 'page',
      url: host.url,
      sessionId,
      concurrency: count,
      reader,
    })),
  );
  try {
    await clients.next(isType('ready'), 120_000);
    const fromMs = Date.now() + warmUpMs;
    const results = clients.next(isType('page-result'), warmUpMs + seconds * 1000 + 300_000);
    clients.send({ type: 'start', fromMs, untilMs: fromMs + seconds * 1000 });
    await sleep(warmUpMs);
    const hostCpu = processCpuMs(host.pid);
    const hostWait = mainThreadSchedMs(host.pid).waitMs;
    const clientsCpu = clients.cpuMs();
    const done = await results;
    const hostMs = processCpuMs(host.pid) - hostCpu;
    const waitMs = mainThreadSchedMs(host.pid).waitMs - hostWait;
    const clientsMs = clients.cpuMs() - clientsCpu;
    const latencies = done.flatMap((r) => r.latencies);
    const errors = done.reduce((sum, r) => sum + r.errors, 0);
    const wallMs = Math.max(...done.map((r) => r.lastMs)) - Math.min(...done.map((r) => r.firstMs));
    const pages = latencies.length;
    const at = `concurrency ${concurrency}, ${label}${readerLabel(reader)}`;
    const error = done.find((r) => r.error !== undefined)?.error;
    const errorNote = errors === 0 ? '' : `; ${errors} errors (${error})`;
    return [
      {
        section,
        name: `tail Page throughput, ${at}`,
        value: (pages / wallMs) * 1000,
        unit: 'pages/s',
        note: `${pages} pages in ${(wallMs / 1000).toFixed(1)} s from ${done.length} client processes${errorNote}; ${load()}`,
      },
      { section, name: `tail Page p50, ${at}`, value: percentile(latencies, 50), unit: 'ms' },
      {
        section,
        name: `tail Page p99, ${at}`,
        value: percentile(latencies, 99),
        unit: 'ms',
        note: `max ${percentile(latencies, 100).toFixed(0)} ms; ${load()}`,
      },
      {
        section,
        name: `host CPU per tail Page, ${at}`,
        value: hostMs / pages,
        unit: 'ms',
        note: `host ${((hostMs / wallMs) * 100).toFixed(0)}% of a core, its main thread waiting for a CPU ${((waitMs / wallMs) * 100).toFixed(0)}% of the wall; client processes ${((clientsMs / wallMs) * 100).toFixed(0)}% ${reader === 'wire' ? "counting each page's events" : 'decoding each page'}`,
      },
    ];
  } finally {
    await clients.stop();
  }
}
