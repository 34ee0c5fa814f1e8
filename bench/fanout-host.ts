import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode, SessionService } from '@dsh/gen/service';
import type { BenchRow } from './bench-row.js';
import {
  benchLimits,
  clientProcessCount,
  isType,
  spread,
  startClientProcesses,
  type ClientProcesses,
} from './client-processes.js';
import { summarizeCpuProfile } from './cpu-profile-summary.js';
import type { ClientJob, ClientReader, FromClient } from './fanout-clients.js';
import { mainThreadSchedMs, processCpuMs, startModelHost, type ModelHost } from './model-host.js';
import type { PacedModel } from './paced-model.js';

const section = 'fanout';

/**
 * With `DSH_BENCH_CPU_PROF=DIR` the latency and writer hosts run under `--cpu-prof` (their
 * timings then include the profiler's cost) and each adds rows of where its busy time
 * went during the measured turn.
 */
const profileDir = process.env.DSH_BENCH_CPU_PROF;

/** Where host `name` writes its CPU profile and the Node options for it, when profiling. */
export function cpuProfiling(name: string): { cpuProf?: string; nodeArgs: string[] } {
  if (profileDir === undefined) return { nodeArgs: [] };
  const cpuProf = join(profileDir, name);
  return { cpuProf, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] };
}

/** CLOCK_MONOTONIC microseconds, the clock of V8's CPU profiles. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** A measured span of a host's CPU profile (CLOCK_MONOTONIC µs) and its rows' label. */
export interface ProfileWindow {
  readonly fromUs: number;
  readonly toUs: number;
  readonly label: string;
}

/** A running host with one model and a client. */
export interface Bench {
  /** The measured span for the CPU profile's rows, and what they are labelled. */
  window?: ProfileWindow;
  readonly dir: string;
  readonly dataDir: string;
  readonly host: ModelHost;
  readonly model: PacedModel;
  readonly client: Client<typeof SessionService>;
}

/** Runs `fn` on a fresh model host in `dir/name`, stopped afterwards whatever happens. */
export async function withHost<T>(
  dir: string,
  model: PacedModel,
  name: string,
  fn: (bench: Bench) => Promise<T>,
  profiled: BenchRow[],
): Promise<T> {
  const hostDir = join(dir, name);
  const { cpuProf, nodeArgs } = cpuProfiling(name);
  const host = await startModelHost(hostDir, model.baseUrl, { serveArgs: benchLimits, nodeArgs });
  let bench: Bench | undefined;
  try {
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    bench = { dir: hostDir, dataDir: join(hostDir, 'sessions'), host, model, client };
    return await fn(bench);
  } finally {
    await host.stop();
    if (cpuProf !== undefined && bench?.window !== undefined) {
      profiled.push(...(await profileRows(cpuProf, bench.window)));
    }
  }
}

/** Rows of where the host's busy time went in `window`, from its one CPU profile. */
export async function profileRows(cpuProf: string, window: ProfileWindow): Promise<BenchRow[]> {
  const file = (await readdir(cpuProf)).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) return [];
  const summary = await summarizeCpuProfile(join(cpuProf, file), window.fromUs, window.toUs);
  const percent = (ms: number) => (ms / summary.busyMs) * 100;
  return [
    {
      section,
      name: `host busy in the CPU profile, ${window.label}`,
      value: summary.busyMs,
      unit: 'ms',
      note: `idle ${summary.idleMs.toFixed(0)} ms; profiled under --cpu-prof (${join(cpuProf, file)})`,
    },
    ...summary.categories.map(([category, ms]) => ({
      section,
      name: `host busy by category, ${window.label}: ${category}`,
      value: percent(ms),
      unit: '% of busy',
      note: `${ms.toFixed(0)} ms`,
    })),
    ...summary.functions.map(([fn, ms]) => ({
      section,
      name: `host self time, ${window.label}: ${fn}`,
      value: percent(ms),
      unit: '% of busy',
      note: `${ms.toFixed(0)} ms`,
    })),
  ];
}

/**
 * Runs `fn` with `followers` followers of `sessionId` spread over the client processes,
 * reading frames as `reader` says, at scheduling priority `nice`.
 */
export async function withFollowers<T>(
  bench: Bench,
  sessionId: string,
  followers: number,
  reader: ClientReader,
  fn: (clients: ClientProcesses) => Promise<T>,
  nice = 0,
): Promise<T> {
  const jobs: ClientJob[] = spread(followers, clientProcessCount).map((count) => ({
    kind: 'follow',
    url: bench.host.url,
    sessionId,
    followers: count,
    reader,
  }));
  const clients = startClientProcesses(jobs, nice);
  try {
    await clients.next(isType('ready'), 120_000);
    return await fn(clients);
  } finally {
    await clients.stop();
  }
}

export const turnEnded =
  (turns: number) =>
  (m: FromClient): m is Extract<FromClient, { type: 'ended' }> =>
    m.type === 'ended' && m.turns >= turns;

export async function newSession(bench: Bench, title: string): Promise<string> {
  const { session } = await bench.client.createSession({ cwd: bench.dir, title });
  return session?.id ?? '';
}

/** Queues a text answer of `chunks` chunks `paceMs` apart and prompts the session. */
export async function startTurn(bench: Bench, sessionId: string, chunks: number, paceMs: number) {
  bench.model.next(
    Array.from({ length: chunks }, (_, i) => `word${i} `),
    paceMs,
  );
  await bench.client.prompt({
    sessionId,
    content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
    mode: PromptMode.QUEUE,
  });
}

/**
 * CPU ms of the host, the client processes and this process, the ms the host's main
 * thread waited for a CPU, and wall ms, from now on.
 */
export function cpuMeter(bench: Bench, clients?: ClientProcesses) {
  const own = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const start = {
    host: processCpuMs(bench.host.pid),
    wait: mainThreadSchedMs(bench.host.pid).waitMs,
    clients: clients?.cpuMs() ?? 0,
    own: own(),
    wall: performance.now(),
  };
  return () => ({
    host: processCpuMs(bench.host.pid) - start.host,
    wait: mainThreadSchedMs(bench.host.pid).waitMs - start.wait,
    clients: (clients?.cpuMs() ?? 0) - start.clients,
    own: own() - start.own,
    wall: performance.now() - start.wall,
  });
}

export const share = (ms: number, wall: number): number => (ms / wall) * 100;

/** The journal file of `sessionId` on the bench's host. */
export function journalPath(bench: Bench, sessionId: string): string {
  return join(bench.dataDir, `${sessionId}.jsonl`);
}
