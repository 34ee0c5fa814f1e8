import { setTimeout as sleep } from 'node:timers/promises';
import { protocols, sessionClient, type SessionClient } from '../lib/clients.js';
import { samplePage } from '../lib/page-sampler.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { crowdArgs, type StartedHost } from '../lib/soak-context.js';
import { createPrng } from '@dsh/fixtures/prng';
import { formatStats } from '../lib/stats.js';
import { startWorkload, streamTurn } from '../lib/workload.js';
import { heapCensus, type Census } from '../lib/heap-census.js';

/** Stream objects a host may hold beyond its count at rest once every client is gone. */
const retainedSlack = 8;
/** Open file descriptors the host may keep beyond its count at rest. */
const fdBudget = 16;
/** Node arguments of a host whose heap the soak counts. */
const censusArgs = ['--heapsnapshot-signal=SIGUSR2'];

/** When a cycle's client goes away. */
type AbortPoint =
  'before the opening frame' | 'after the opening frame' | 'mid catch-up' | 'while live';
const abortPoints: readonly AbortPoint[] = [
  'before the opening frame',
  'after the opening frame',
  'mid catch-up',
  'while live',
];

/**
 * Follow/abort cycles on the real host, aborting at every point of a stream over every
 * protocol, then a burst of appends. The host exposes no listener count, so the soak
 * counts what a leaked stream keeps alive (its handler's async generator and abort
 * controller) in V8 heap snapshots taken before and after, and reports RSS and fds.
 */
export const followAbortCycles: Probe = {
  name: 'follow-cycles',
  short: true,
  async run(ctx) {
    const cycles = ctx.short ? 1_000 : 10_000;
    const cwd = ctx.dir('cwd');
    const host = await ctx.host({ cwd, nodeArgs: censusArgs });
    const control = sessionClient(host.url, protocols[0]);
    const sessionId = (await control.createSession({ cwd })).session?.id ?? '';
    const length = (await streamTurn(control, sessionId, 200, 40)) + 1;
    // Warm up with the same mix, so first-use memory is in the figures at rest.
    await runCycles(host.url, sessionId, length, 200, createPrng(2).next);
    await streamTurn(control, sessionId, 300, 400);
    const before = await usage(host, cwd);
    const counts = await runCycles(host.url, sessionId, length, cycles, createPrng(3).next);
    await streamTurn(control, sessionId, 300, 400);
    const after = await usage(host, cwd);
    await host.stop();
    const leaks = retained(before, after);
    const fdGrowth = after.fds - before.fds;
    return [
      {
        probe: `${cycles.toLocaleString('en-US')} follow/abort cycles`,
        tried: cycles,
        failed: leaks.failed + (fdGrowth > fdBudget ? 1 : 0) + counts.errors,
        lost: null,
        required: true,
        note:
          `${leaks.note}; RSS ${mb(before.rssKb)} -> ${mb(after.rssKb)} MiB, fds ${before.fds} -> ${after.fds} ` +
          `after the cycles and a 300-event burst; aborts: ${abortPoints.map((p, i) => `${counts.byPoint[i]} ${p}`).join(', ')}; ` +
          `${counts.errors} unexpected errors; the host exposes no listener count (heap census instead)`,
      },
    ];
  },
};

/**
 * Followers that read the opening frame, stop reading while a big burst is appended,
 * then disconnect: the host must keep serving meanwhile and give their streams,
 * memory and sockets back.
 */
export const stalledFollowers: Probe = {
  name: 'stalled-followers',
  short: true,
  async run(ctx): Promise<RowResult[]> {
    const count = ctx.short ? 20 : 200;
    const cwd = ctx.dir('cwd');
    const host = await ctx.host({ cwd, nodeArgs: censusArgs, serveArgs: crowdArgs(count) });
    const clients = protocols.map((p) => sessionClient(host.url, p));
    const control = clients[0]!;
    const sessionId = (await control.createSession({ cwd })).session?.id ?? '';
    const paged = (await control.createSession({ cwd })).session?.id ?? '';
    await streamTurn(control, paged, 20, 40);
    await streamTurn(control, sessionId, 20, 40);
    const before = await usage(host, cwd);
    const aborts = Array.from({ length: count }, () => new AbortController());
    const stalled = aborts.map(async (abort, i) => {
      const stream = clients[i % clients.length]!.follow({ sessionId }, { signal: abort.signal });
      try {
        await stream[Symbol.asyncIterator]().next();
        // Stop reading: the next frame is never asked for until the client goes away.
        await new Promise<void>((resolve) =>
          abort.signal.addEventListener('abort', () => resolve()),
        );
      } catch {
        // The host may close a stuck stream itself.
      }
    });
    const sampler = samplePage(sessionClient(host.url, 'connect-binary'), paged, {
      limitMs: stallMs,
    });
    const work = await startWorkload(control, sessionId, {
      ms: ctx.short ? 3_000 : 10_000,
      chunks: 2_000,
      delayMs: 1,
      size: 4_000,
    });
    const lastSeq = await work.stop();
    const duringKb = host.rssKb() ?? 0;
    const duringFds = host.fdCount() ?? 0;
    for (const abort of aborts) abort.abort();
    await Promise.allSettled(stalled);
    const pages = await sampler.stop();
    const after = await usage(host, cwd);
    const alive = host.alive();
    await host.stop();
    const leaks = retained(before, after);
    const fdGrowth = after.fds - before.fds;
    return [
      {
        probe: `${count} stalled-then-dropped followers`,
        tried: count + pages.samples.length,
        failed: leaks.failed + (fdGrowth > fdBudget ? 1 : 0) + pages.slow + (alive ? 0 : 1),
        lost: null,
        required: true,
        note:
          `${lastSeq + 1} events (4 KB chunks) appended while they read nothing; ${leaks.note}; ` +
          `RSS ${mb(before.rssKb)} -> ${mb(duringKb)} while stalled -> ${mb(after.rssKb)} MiB after the drop; ` +
          `fds ${before.fds} -> ${duringFds} -> ${after.fds}; Page meanwhile ${formatStats(pages.stats)}, ${pages.slow} over ${stallMs} ms` +
          (alive ? '' : '; the host died'),
      },
    ];
  },
};

/** A Page slower than this while followers stall means the host is stuck. */
const stallMs = 1_000;

/** Classes a leaked stream keeps alive, whatever the handler code is called. */
const streamClasses = ['AsyncGenerator', 'AbortController'];

function retained(before: Usage, after: Usage): { failed: number; note: string } {
  const extra = streamClasses.map(
    (name) => [name, (after.census.get(name) ?? 0) - (before.census.get(name) ?? 0)] as const,
  );
  const failed = extra.filter(([, n]) => n > retainedSlack).length;
  return {
    failed,
    note: `live objects after every client left: ${extra.map(([name, n]) => `${n >= 0 ? '+' : ''}${n} ${name}`).join(', ')} (slack ${retainedSlack})`,
  };
}

interface Usage {
  rssKb: number;
  fds: number;
  census: Census;
}

/** The host's RSS, fds and live objects after 2 s of quiet (sockets need a moment to close). */
async function usage(host: StartedHost, cwd: string): Promise<Usage> {
  await sleep(2_000);
  const census = await heapCensus(host.pid, cwd);
  return { rssKb: host.rssKb() ?? 0, fds: host.fdCount() ?? 0, census };
}

const mb = (kb: number): string => (kb / 1024).toFixed(0);

/**
 * Cycles one client (one HTTP/2 connection) serves: a client that resets streams faster
 * than about 33 a second for long trips nghttp2's rapid-reset guard, which ends its
 * connection with GOAWAY, as it should for an attacker; a crowd of browsers spreads its
 * cycles over many connections.
 */
const cyclesPerClient = 300;

/** Runs `cycles` follow/abort cycles, 16 at a time, over every protocol and abort point. */
async function runCycles(
  url: string,
  sessionId: string,
  length: number,
  cycles: number,
  random: () => number,
): Promise<{ byPoint: number[]; errors: number }> {
  const byPoint = abortPoints.map(() => 0);
  const clients = new Map<number, SessionClient>();
  const clientFor = (i: number): SessionClient => {
    const key = Math.floor(i / (cyclesPerClient * protocols.length)) * protocols.length;
    const slot = key + (i % protocols.length);
    let client = clients.get(slot);
    if (client === undefined) {
      // Closed once idle, so the connections of finished cycles hold no fd at the census.
      client = sessionClient(url, protocols[i % protocols.length]!, {
        idleConnectionTimeoutMs: 1_000,
      });
      clients.set(slot, client);
    }
    return client;
  };
  let errors = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cycles) {
      const i = next++;
      const point = Math.floor(random() * abortPoints.length);
      byPoint[point]!++;
      const abort = new AbortController();
      const client = clientFor(i);
      // Only the catch-up cycles read history; the others start near the end, so a cycle
      // costs the host little and the run stays short.
      const afterSeq = point === 2 ? undefined : point === 3 ? length - 1 : length - 3;
      const wanted = point === 2 ? 2 + Math.floor(random() * 50) : point === 0 ? 0 : 1;
      // However the host behaves, a cycle ends within 3 s.
      const timer = setTimeout(() => abort.abort(), 3_000);
      try {
        const stream = client.follow({ sessionId, afterSeq }, { signal: abort.signal });
        if (wanted === 0) {
          const first = stream[Symbol.asyncIterator]().next();
          // Gone while the request is in flight, before the host's first frame.
          await sleep(random() * 3);
          abort.abort();
          await first.catch(() => undefined);
          continue;
        }
        let got = 0;
        for await (const frame of stream) {
          if (frame.frame.case !== 'heartbeat' && ++got >= wanted) break;
        }
        // A live follower waits for the next append when its client goes away.
        if (point === 3) await sleep(5 + random() * 25);
        abort.abort();
      } catch {
        if (!abort.signal.aborted) errors++;
      } finally {
        clearTimeout(timer);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { byPoint, errors };
}
