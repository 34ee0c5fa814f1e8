import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { percentile, type BenchRow } from './bench-row.js';
import {
  benchLimits,
  clientProcessCount,
  isType,
  load,
  spread,
  startClientProcesses,
  type ClientProcesses,
} from './client-processes.js';
import type { ClientJob, FromClient } from './fanout-clients.js';
import { fanoutPageRows } from './fanout-page-rows.js';
import { processCpuMs, startModelHost, type ModelHost } from './model-host.js';
import { startPacedModel, type PacedModel } from './paced-model.js';

const section = 'fanout';

interface Sizes {
  /** Follower counts of the latency rows. */
  readonly followers: readonly number[];
  /** Chunks of the paced answer and the pause between them. */
  readonly pacedChunks: number;
  readonly paceMs: number;
  /** Chunks of the writer's fixed workload (streamed as fast as it goes) and its followers. */
  readonly writerChunks: number;
  readonly writerFollowers: number;
}

/** A running host with one model and a client. */
interface Bench {
  readonly dir: string;
  readonly dataDir: string;
  readonly host: ModelHost;
  readonly model: PacedModel;
  readonly client: Client<typeof SessionService>;
}

/**
 * Fan-out of one session to many followers and `Page` under concurrency, each on a fresh
 * `dsh serve` process with every client in child processes (`fanout-clients.ts`):
 * append-to-receive latency of a steady stream of appends with its host CPU breakdown,
 * the writer's event rate with and without followers, and tail pages of a long session
 * at concurrency 1 and 200.
 */
export async function fanoutBench(quick: boolean): Promise<BenchRow[]> {
  const sizes: Sizes = quick
    ? {
        followers: [100, 300],
        pacedChunks: 100,
        paceMs: 40,
        writerChunks: 5_000,
        writerFollowers: 100,
      }
    : {
        followers: [100, 1000],
        pacedChunks: 250,
        paceMs: 40,
        writerChunks: 20_000,
        writerFollowers: 500,
      };
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-fanout-'));
  const model = await startPacedModel();
  const rows: BenchRow[] = [];
  const attempt = async (name: string, fn: () => Promise<BenchRow[]>): Promise<void> => {
    try {
      rows.push(...(await fn()));
    } catch (error) {
      rows.push({
        section,
        name: `${name} failed`,
        value: Number.NaN,
        unit: '',
        note: String(error),
      });
    }
  };
  try {
    for (const followers of sizes.followers) {
      await attempt(`latency, ${followers} followers`, () =>
        withHost(dir, model, `latency-${followers}`, (bench) =>
          latencyRows(bench, followers, sizes),
        ),
      );
    }
    await attempt('writer', () => writerRows(dir, model, sizes));
    await attempt('page', () =>
      fanoutPageRows(
        dir,
        quick ? { events: 100_000, seconds: 4 } : { events: 1_000_000, seconds: 10 },
      ),
    );
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** Runs `fn` on a fresh model host in `dir/name`, stopped afterwards whatever happens. */
async function withHost<T>(
  dir: string,
  model: PacedModel,
  name: string,
  fn: (bench: Bench) => Promise<T>,
): Promise<T> {
  const hostDir = join(dir, name);
  const host = await startModelHost(hostDir, model.baseUrl, benchLimits);
  try {
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    return await fn({ dir: hostDir, dataDir: join(hostDir, 'sessions'), host, model, client });
  } finally {
    await host.stop();
  }
}

/** Runs `fn` with `followers` followers of `sessionId` spread over the client processes. */
async function withFollowers<T>(
  bench: Bench,
  sessionId: string,
  followers: number,
  fn: (clients: ClientProcesses) => Promise<T>,
): Promise<T> {
  const jobs: ClientJob[] = spread(followers, clientProcessCount).map((count) => ({
    kind: 'follow',
    url: bench.host.url,
    sessionId,
    followers: count,
  }));
  const clients = startClientProcesses(jobs);
  try {
    await clients.next(isType('ready'), 120_000);
    return await fn(clients);
  } finally {
    await clients.stop();
  }
}

const turnEnded =
  (turns: number) =>
  (m: FromClient): m is Extract<FromClient, { type: 'ended' }> =>
    m.type === 'ended' && m.turns >= turns;

async function newSession(bench: Bench, title: string): Promise<string> {
  const { session } = await bench.client.createSession({ cwd: bench.dir, title });
  return session?.id ?? '';
}

/** Queues a text answer of `chunks` chunks `paceMs` apart and prompts the session. */
async function startTurn(bench: Bench, sessionId: string, chunks: number, paceMs: number) {
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

/** One journal line's fields the bench reads. */
interface Line {
  readonly type: string;
  readonly timeMs: number;
  readonly turn: number;
}

function parseLine(text: string): Line | undefined {
  try {
    const value = JSON.parse(text) as { type?: string; time?: string; turn?: number };
    if (value.type === undefined) return undefined;
    return { type: value.type, timeMs: Date.parse(value.time ?? ''), turn: value.turn ?? 0 };
  } catch {
    return undefined;
  }
}

/** Polls the end of the session's journal file every 20 ms until turn `turn` ended. */
async function waitTurnEnd(bench: Bench, sessionId: string, turn: number, timeoutMs: number) {
  const path = join(bench.dataDir, `${sessionId}.jsonl`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, size - length);
      const ends = buffer
        .toString('utf8')
        .split('\n')
        .map(parseLine)
        .filter((line) => line?.type === 'turn/end' && line.turn >= turn);
      if (ends.length > 0) return;
    } finally {
      await file.close();
    }
    if (Date.now() > deadline)
      throw new Error(`turn ${turn} of ${sessionId}: no end in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The journal's lines of turn `turn`. */
async function turnLines(bench: Bench, sessionId: string, turn: number): Promise<Line[]> {
  const text = await readFile(join(bench.dataDir, `${sessionId}.jsonl`), 'utf8');
  return text
    .split('\n')
    .slice(1)
    .flatMap((raw) => {
      const line = parseLine(raw);
      return line !== undefined && line.turn === turn ? [line] : [];
    });
}

/** CPU ms of the host, the client processes and this process, and wall ms, from now on. */
function cpuMeter(bench: Bench, clients?: ClientProcesses) {
  const own = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const start = {
    host: processCpuMs(bench.host.pid),
    clients: clients?.cpuMs() ?? 0,
    own: own(),
    wall: performance.now(),
  };
  return () => ({
    host: processCpuMs(bench.host.pid) - start.host,
    clients: (clients?.cpuMs() ?? 0) - start.clients,
    own: own() - start.own,
    wall: performance.now() - start.wall,
  });
}

const share = (ms: number, wall: number): number => (ms / wall) * 100;

/**
 * Append-to-receive latency of `assistant/chunk` events the host's agent loop appends one
 * at a time (`paceMs` apart), for `followers` followers in the client processes, with the
 * host's CPU for the same turn followed by nobody as the baseline of the breakdown.
 */
async function latencyRows(bench: Bench, followers: number, sizes: Sizes): Promise<BenchRow[]> {
  const turnMs = sizes.pacedChunks * sizes.paceMs;
  const quiet = await newSession(bench, 'quiet');
  await startTurn(bench, quiet, 20, sizes.paceMs);
  await waitTurnEnd(bench, quiet, 1, 60_000);
  let meter = cpuMeter(bench);
  await startTurn(bench, quiet, sizes.pacedChunks, sizes.paceMs);
  await waitTurnEnd(bench, quiet, 2, turnMs * 5 + 60_000);
  const alone = meter();

  const followed = await newSession(bench, 'followed');
  return withFollowers(bench, followed, followers, async (clients) => {
    // A short turn first: connections, JIT and buffers warm, then the samples start.
    await startTurn(bench, followed, 20, sizes.paceMs);
    await clients.next(turnEnded(1), 120_000);
    clients.send({ type: 'reset' });
    meter = cpuMeter(bench, clients);
    await startTurn(bench, followed, sizes.pacedChunks, sizes.paceMs);
    await clients.next(turnEnded(2), turnMs * 10 + 120_000);
    const used = meter();
    const results = clients.next(isType('follow-result'), 60_000);
    clients.send({ type: 'stop' });
    const done = await results;
    const latencies = done.flatMap((r) => r.latencies);
    const frames = done.reduce((sum, r) => sum + r.frames, 0);
    const events = done.reduce((sum, r) => sum + r.events, 0);
    const label = `${followers.toLocaleString('en-US')} followers`;
    const target =
      followers <= 100 ? 'target <= 15 ms' : followers >= 1000 ? 'target <= 100 ms' : '';
    const how = `${sizes.pacedChunks} chunks ${sizes.paceMs} ms apart, ${latencies.length.toLocaleString('en-US')} samples, ${clientProcessCount} client processes; ${load()}`;
    const perFrameUs = ((used.host - alone.host) / frames) * 1000;
    return [
      {
        section,
        name: `append-to-receive p50, ${label}`,
        value: percentile(latencies, 50),
        unit: 'ms',
        note: how,
      },
      {
        section,
        name: `append-to-receive p99, ${label}`,
        value: percentile(latencies, 99),
        unit: 'ms',
        note: `${target}; max ${Math.max(...latencies).toFixed(1)} ms; ${load()}`,
      },
      {
        section,
        name: `host CPU while followed, ${label}`,
        value: share(used.host, used.wall),
        unit: '% of a core',
        note: `the same turn followed by nobody: ${share(alone.host, alone.wall).toFixed(1)}% (${(alone.wall / 1000).toFixed(1)} s wall)`,
      },
      {
        section,
        name: `host CPU per delivered frame, ${label}`,
        value: perFrameUs,
        unit: 'µs',
        note: `(host CPU followed - alone) / ${frames.toLocaleString('en-US')} frames of ${events.toLocaleString('en-US')} events (${(events / frames).toFixed(2)} events a frame)`,
      },
      {
        section,
        name: `client processes' CPU, ${label}`,
        value: share(used.clients, used.wall),
        unit: '% of a core',
        note: `${clientProcessCount} processes decoding binary Connect frames; the bench process (paced model): ${share(used.own, used.wall).toFixed(1)}%; 2 cores in all`,
      },
    ];
  });
}

/**
 * The writer's cost of fan-out: the same agent workload (an answer of `writerChunks`
 * chunks streamed at once, so the agent loop appends as fast as it can) on a fresh host
 * with no follower and with `writerFollowers`, its event rate from the journal's own
 * times and the host CPU it took.
 */
async function writerRows(dir: string, model: PacedModel, sizes: Sizes): Promise<BenchRow[]> {
  const runs: { followers: number; rate: number; cpuPerEvent: number; note: string }[] = [];
  for (const followers of [0, sizes.writerFollowers]) {
    runs.push(
      await withHost(dir, model, `writer-${followers}`, async (bench) => {
        const sessionId = await newSession(bench, 'writer');
        const measure = async (clients?: ClientProcesses) => {
          await startTurn(bench, sessionId, 200, 0);
          await waitTurnEnd(bench, sessionId, 1, 60_000);
          if (clients !== undefined) {
            await clients.next(turnEnded(1), 120_000);
            clients.send({ type: 'reset' });
          }
          const meter = cpuMeter(bench, clients);
          await startTurn(bench, sessionId, sizes.writerChunks, 0);
          await waitTurnEnd(bench, sessionId, 2, 300_000);
          const used = meter();
          const lines = await turnLines(bench, sessionId, 2);
          const chunks = lines.filter((l) => l.type === 'assistant/chunk').length;
          const start = lines.find((l) => l.type === 'turn/start')?.timeMs ?? Number.NaN;
          const end = lines.find((l) => l.type === 'assistant/message')?.timeMs ?? Number.NaN;
          const rate = chunks / ((end - start) / 1000);
          let note = `${chunks.toLocaleString('en-US')} chunks in ${end - start} ms (journal times); host CPU ${used.host.toFixed(0)} ms`;
          if (clients !== undefined) {
            await clients.next(turnEnded(2), 300_000);
            const results = clients.next(isType('follow-result'), 60_000);
            clients.send({ type: 'stop' });
            const latencies = (await results).flatMap((r) => r.latencies);
            note += `; followers' append-to-receive p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; client processes' CPU ${used.clients.toFixed(0)} ms`;
          }
          return { followers, rate, cpuPerEvent: used.host / chunks, note: `${note}; ${load()}` };
        };
        return followers === 0
          ? measure()
          : withFollowers(bench, sessionId, followers, (clients) => measure(clients));
      }),
    );
  }
  const [alone, followed] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const label = (n: number) => (n === 0 ? 'no follower' : `${n} followers`);
  return [
    ...runs.map((run) => ({
      section,
      name: `writer event rate, ${label(run.followers)}`,
      value: run.rate,
      unit: 'events/s',
      note: run.note,
    })),
    ...runs.map((run) => ({
      section,
      name: `writer host CPU per appended event, ${label(run.followers)}`,
      value: run.cpuPerEvent * 1000,
      unit: 'µs',
      note: 'host CPU over the turn / its assistant/chunk events (followers served meanwhile included)',
    })),
    {
      section,
      name: `writer event rate with ${followed.followers} followers / without`,
      value: (followed.rate / alone.rate) * 100,
      unit: '%',
      note: `target >= 90% (fan-out costs the writer <= 10%); ${load()}`,
    },
  ];
}
