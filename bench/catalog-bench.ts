import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { dshBin } from '@dsh/cli';
import { assistantMessage, events, usage, userMessage } from '@dsh/fixtures';
import { ListSessionsResponseSchema, SessionService } from '@dsh/gen/service';
import { fromBinary } from '@bufbuild/protobuf';
import { encodeEventLine, encodeHeaderLine, formatVersion } from '@dsh/journal';
import { percentile, since, type BenchRow } from './bench-row.js';
import { servingHost } from './model-host.js';

const section = 'catalog';

/**
 * The session catalog through a fresh `dsh serve` process per measurement: start to the
 * first answered ListSessions over `sessions` small sessions (without and then with the
 * catalog cache), ListSessions latency then, and the host's RSS and open fds after
 * paging `paged` different sessions once (bounded by the open-journal cap).
 */
export async function catalogBench(quick: boolean): Promise<BenchRow[]> {
  const sessions = quick ? 1_000 : 10_000;
  const paged = quick ? 500 : 5_000;
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-catalog-'));
  try {
    const dataDir = join(dir, 'data');
    await writeSessions(dataDir, sessions);
    const rows: BenchRow[] = [];
    // The same start on a data dir of one session: what spawning and booting a host costs.
    const emptyDir = join(dir, 'one');
    await writeSessions(emptyDir, 1);
    const empty = await startHost(emptyDir, dir);
    try {
      const client = createClient(
        SessionService,
        createConnectTransport({ baseUrl: empty.url, httpVersion: '1.1', useBinaryFormat: true }),
      );
      await client.listSessions({});
      rows.push({
        section,
        name: 'start to first ListSessions, 1 session',
        value: since(empty.started),
        unit: 'ms',
        note: 'spawn and boot of a fresh host alone: subtract it from the rows below',
      });
    } finally {
      await empty.stop();
    }
    for (const cache of ['no cache', 'cache'] as const) {
      const host = await startHost(dataDir, dir);
      try {
        // Binary, as both clients speak; JSON (curl, other-language clients) is timed below.
        const transport = (binary: boolean) =>
          createConnectTransport({
            baseUrl: host.url,
            httpVersion: '1.1',
            useBinaryFormat: binary,
          });
        const client = createClient(SessionService, transport(true));
        let listed = 0;
        let firstMs = 0;
        for (;;) {
          listed = (await client.listSessions({}).catch(() => ({ sessions: [] }))).sessions.length;
          if (listed >= sessions) {
            firstMs = since(host.started);
            break;
          }
          if (since(host.started) > 120_000) throw new Error(`only ${listed} sessions listed`);
        }
        rows.push({
          section,
          name: `start to first ListSessions, ${sessions.toLocaleString('en-US')} sessions (${cache})`,
          value: firstMs,
          unit: 'ms',
          note: 'spawn of a fresh host included; machine shared with other work',
        });
        const samples = await listTimes(client);
        rows.push({
          section,
          name: `ListSessions p50, ${sessions.toLocaleString('en-US')} sessions (${cache})`,
          value: percentile(samples, 50),
          unit: 'ms',
        });
        rows.push({
          section,
          name: `ListSessions p95, ${sessions.toLocaleString('en-US')} sessions (${cache})`,
          value: percentile(samples, 95),
          unit: 'ms',
        });
        if (cache === 'cache') {
          // Once the start's check of the cached entries (1 s after it) is done.
          await new Promise((resolve) => setTimeout(resolve, settledMs));
          const settled = await listTimes(client);
          const decodeMs = await decodeTimes(host.url);
          rows.push({
            section,
            name: `ListSessions p50, ${sessions.toLocaleString('en-US')} sessions (cache, settled)`,
            value: percentile(settled, 50),
            unit: 'ms',
            note: `${settledMs / 1000} s after the first list; of it, the client decoding the answer: ${decodeMs.toFixed(1)} ms p50`,
          });
          const pageSamples = await listTimes(client, listPageSize);
          rows.push({
            section,
            name: `ListSessions first page of ${listPageSize} p50, ${sessions.toLocaleString('en-US')} sessions`,
            value: percentile(pageSamples, 50),
            unit: 'ms',
            note: `page_size ${listPageSize}, binary: what a list shows first (p95 ${percentile(pageSamples, 95).toFixed(1)} ms)`,
          });
          const jsonSamples = await listTimes(createClient(SessionService, transport(false)));
          rows.push({
            section,
            name: `ListSessions p50 over JSON, ${sessions.toLocaleString('en-US')} sessions`,
            value: percentile(jsonSamples, 50),
            unit: 'ms',
            note: 'Connect JSON (curl, other-language clients): encoded per call, decoded in the client',
          });
        }
        if (cache === 'cache') {
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
    await rm(dir, { recursive: true, force: true });
  }
}

/** The page size of the paged ListSessions row: about what a list shows at once. */
const listPageSize = 100;

/** How long the settled ListSessions row waits after the first list. */
const settledMs = 3_000;

/**
 * Milliseconds the Connect client takes to decode one binary ListSessions answer (p50 of
 * 20): the part of a list call spent in the client, not the host.
 */
async function decodeTimes(url: string): Promise<number> {
  const response = await fetch(`${url}/dsh.session.v1.SessionService/ListSessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/proto' },
    body: new Uint8Array(0),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const samples: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    fromBinary(ListSessionsResponseSchema, bytes);
    samples.push(since(start));
  }
  return percentile(samples, 50);
}

/** Milliseconds of 20 ListSessions calls made one after another (every session, or a page). */
async function listTimes(client: Client<typeof SessionService>, pageSize = 0): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    await client.listSessions({ pageSize });
    samples.push(since(start));
  }
  return samples;
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
