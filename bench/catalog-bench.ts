import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { dshBin } from '@dsh/cli';
import { assistantMessage, events, usage, userMessage } from '@dsh/fixtures';
import { SessionService } from '@dsh/gen/service';
import { encodeEventLine, encodeHeaderLine, formatVersion } from '@dsh/journal';
import { percentile, type BenchRow } from './bench-row.js';
import { startListClient, type ListClientProcess } from './list-client-process.js';
import { servingHost } from './model-host.js';

const section = 'catalog';

/**
 * The session catalog through a fresh `dsh serve` process per measurement: start to the
 * first answered ListSessions over `sessions` small sessions (without and then with the
 * catalog cache), ListSessions latency then, and the host's RSS and open fds after
 * paging `paged` different sessions once (bounded by the open-journal cap). The lists
 * come from a client process of their own (`list-client.ts`), as a TUI's would.
 */
export async function catalogBench(quick: boolean): Promise<BenchRow[]> {
  const sessions = quick ? 1_000 : 10_000;
  const paged = quick ? 500 : 5_000;
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-catalog-'));
  const lister = await startListClient();
  try {
    const dataDir = join(dir, 'data');
    await writeSessions(dataDir, sessions);
    const rows: BenchRow[] = [];
    // The same start on a data dir of one session: what spawning and booting a host costs.
    const emptyDir = join(dir, 'one');
    await writeSessions(emptyDir, 1);
    const empty = await startHost(emptyDir, dir);
    try {
      rows.push({
        section,
        name: 'start to first ListSessions, 1 session',
        value: await firstList(lister, empty, 1),
        unit: 'ms',
        note: 'spawn and boot of a fresh host alone: subtract it from the rows below',
      });
    } finally {
      await empty.stop();
    }
    const count = sessions.toLocaleString('en-US');
    for (const cache of ['no cache', 'cache'] as const) {
      const host = await startHost(dataDir, dir);
      try {
        rows.push({
          section,
          name: `start to first ListSessions, ${count} sessions (${cache})`,
          value: await firstList(lister, host, sessions),
          unit: 'ms',
          note: 'spawn of a fresh host included; machine shared with other work',
        });
        // Binary, as both clients speak; JSON (curl, other-language clients) is timed below.
        const samples = await listTimes(lister, 0, false);
        rows.push({
          section,
          name: `ListSessions p50, ${count} sessions (${cache})`,
          value: percentile(samples, 50),
          unit: 'ms',
          note: 'right after the first list',
        });
        rows.push({
          section,
          name: `ListSessions p95, ${count} sessions (${cache})`,
          value: percentile(samples, 95),
          unit: 'ms',
        });
        if (cache === 'cache') {
          // Once the start's check of the cached entries (1 s after it) is done.
          await new Promise((resolve) => setTimeout(resolve, settledMs));
          const settled = await listTimes(lister, 0, false);
          const decodeMs = (await lister.ask({ type: 'decode' }, 'decode', 60_000)).ms;
          rows.push({
            section,
            name: `ListSessions p50, ${count} sessions (cache, settled)`,
            value: percentile(settled, 50),
            unit: 'ms',
            note: `${settledMs / 1000} s after the first list; of it, the client decoding the answer: ${decodeMs.toFixed(1)} ms p50`,
          });
          const pageSamples = await listTimes(lister, listPageSize, false);
          rows.push({
            section,
            name: `ListSessions first page of ${listPageSize} p50, ${count} sessions`,
            value: percentile(pageSamples, 50),
            unit: 'ms',
            note: `page_size ${listPageSize}, binary: what a list shows first (p95 ${percentile(pageSamples, 95).toFixed(1)} ms)`,
          });
          const jsonSamples = await listTimes(lister, 0, true);
          rows.push({
            section,
            name: `ListSessions p50 over JSON, ${count} sessions`,
            value: percentile(jsonSamples, 50),
            unit: 'ms',
            note: 'Connect JSON (curl, other-language clients): the host keeps its encoded answer while the list is unchanged; most of the call is the client parsing JSON',
          });
          const client = createClient(
            SessionService,
            createConnectTransport({
              baseUrl: host.url,
              httpVersion: '1.1',
              useBinaryFormat: true,
            }),
          );
          for (let i = 0; i < paged; i += 1) await client.page({ sessionId: sessionId(i) });
          const status = await readFile(`/proc/${host.pid}/status`, 'utf8');
          const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
          const fds = (await readdir(`/proc/${host.pid}/fd`)).length;
          const note = `after a tail Page of ${paged.toLocaleString('en-US')} different sessions`;
          rows.push({ section, name: 'host RSS', value: rssKb / 1024, unit: 'MiB', note });
          rows.push({ section, name: 'host open fds', value: fds, unit: 'fds', note });
        }
      } finally {
        await host.stop();
      }
    }
    return rows;
  } finally {
    await lister.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The page size of the paged ListSessions row: about what a list shows at once. */
const listPageSize = 100;

/** How long the settled ListSessions row waits after the first list. */
const settledMs = 3_000;

/** Milliseconds from `host`'s spawn to the client's first answer listing `sessions`. */
async function firstList(
  lister: ListClientProcess,
  host: BenchHost,
  sessions: number,
): Promise<number> {
  const message = { type: 'first', url: host.url, sessions } as const;
  const { atMs } = await lister.ask(message, 'listed', 120_000);
  return atMs - (performance.timeOrigin + host.started);
}

/** Milliseconds of 20 ListSessions calls made one after another (every session, or a page). */
async function listTimes(
  lister: ListClientProcess,
  pageSize: number,
  json: boolean,
): Promise<number[]> {
  const message = { type: 'times', calls: 20, pageSize, json } as const;
  return (await lister.ask(message, 'times', 120_000)).samples;
}

function sessionId(i: number): string {
  return `bench-${i.toString().padStart(5, '0')}`;
}

/** Writes `count` small journals (a prompt, an answer with usage) straight into the data dir. */
async function writeSessions(dataDir: string, count: number): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  for (let i = 0; i < count; i += 1) {
    const id = sessionId(i);
    const header = encodeHeaderLine({
      formatVersion,
      sessionId: id,
      cwd: '/tmp',
      parentId: '',
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      model: 'demo',
      title: '',
    });
    const list = events([
      userMessage(`question number ${i}`),
      assistantMessage({ turn: 1 }, [`answer ${i}`], usage(100, 20)),
    ]);
    await writeFile(
      join(dataDir, `${id}.jsonl`),
      [header, ...list.map(encodeEventLine)].join('\n') + '\n',
    );
  }
}

/** A `dsh serve` process of a benchmark. */
export interface BenchHost {
  readonly url: string;
  readonly pid: number;
  readonly started: number;
  stop(): Promise<void>;
}

/**
 * `dsh serve --port 0` on `dataDir` (with further options `serveArgs`, and `nodeArgs` for
 * its Node process), HOME in a scratch dir; resolves once it printed its URL.
 */
export async function startHost(
  dataDir: string,
  dir: string,
  serveArgs: readonly string[] = [],
  nodeArgs: readonly string[] = [],
): Promise<BenchHost> {
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DSH_')) env[key] = value;
  }
  env.HOME = home;
  const started = performance.now();
  const args = ['serve', '--port', '0', '--data-dir', dataDir, ...serveArgs];
  const child = spawn(process.execPath, [...nodeArgs, dshBin, ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, stop } = await servingHost(child);
  return {
    url,
    pid: child.pid!,
    started,
    stop,
  };
}
