import { percentile, type BenchRow } from './bench-row.js';
import { clientProcessCount, isType, load, readerDoes, readerLabel } from './client-processes.js';
import type { ClientReader } from './fanout-clients.js';
import {
  cpuMeter,
  journalPath,
  monotonicUs,
  newSession,
  share,
  startTurn,
  turnEnded,
  withFollowers,
  type Bench,
} from './fanout-host.js';
import { waitTurnEnd } from './journal-turns.js';

const section = 'fanout';

/**
 * Append-to-receive latency of `assistant/chunk` events the host's agent loop appends one
 * at a time (`paceMs` apart), for `followers` followers in the client processes, with the
 * host's CPU for the same turn followed by nobody as the baseline of the breakdown.
 */
export async function latencyRows(
  bench: Bench,
  followers: number,
  reader: ClientReader,
  sizes: { pacedChunks: number; paceMs: number },
): Promise<BenchRow[]> {
  const turnMs = sizes.pacedChunks * sizes.paceMs;
  const quiet = await newSession(bench, 'quiet');
  await startTurn(bench, quiet, 20, sizes.paceMs);
  await waitTurnEnd(journalPath(bench, quiet), 1, 60_000);
  let meter = cpuMeter(bench);
  await startTurn(bench, quiet, sizes.pacedChunks, sizes.paceMs);
  await waitTurnEnd(journalPath(bench, quiet), 2, turnMs * 5 + 60_000);
  const alone = meter();

  const followed = await newSession(bench, 'followed');
  return withFollowers(bench, followed, followers, reader, async (clients) => {
    // A short turn first: connections, JIT and buffers warm, then the samples start.
    await startTurn(bench, followed, 20, sizes.paceMs);
    await clients.next(turnEnded(1), 120_000);
    clients.send({ type: 'reset' });
    meter = cpuMeter(bench, clients);
    const fromUs = monotonicUs();
    await startTurn(bench, followed, sizes.pacedChunks, sizes.paceMs);
    await clients.next(turnEnded(2), turnMs * 10 + 120_000);
    const used = meter();
    bench.window = { fromUs, toUs: monotonicUs(), label: `${followers} followers, paced` };
    const results = clients.next(isType('follow-result'), 60_000);
    clients.send({ type: 'stop' });
    const done = await results;
    const latencies = done.flatMap((r) => r.latencies);
    const frames = done.reduce((sum, r) => sum + r.frames, 0);
    const events = done.reduce((sum, r) => sum + r.events, 0);
    const reconnects = done.reduce((sum, r) => sum + r.reconnects, 0);
    const label = `${followers.toLocaleString('en-US')} followers${readerLabel(reader)}`;
    const target =
      reader === 'connect'
        ? "the same load read by Connect clients, for the clients' share of the 2 cores"
        : followers <= 100
          ? 'target <= 15 ms'
          : followers >= 1000
            ? 'target <= 100 ms'
            : '';
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
        note: [
          target,
          `p90 ${percentile(latencies, 90).toFixed(1)} ms, p99.9 ${percentile(latencies, 99.9).toFixed(1)} ms, max ${percentile(latencies, 100).toFixed(1)} ms`,
          load(),
        ]
          .filter(Boolean)
          .join('; '),
      },
      {
        section,
        name: `host CPU while followed, ${label}`,
        value: share(used.host, used.wall),
        unit: '% of a core',
        note: `its main thread waited for a CPU ${share(used.wait, used.wall).toFixed(0)}% of the wall; the same turn followed by nobody: ${share(alone.host, alone.wall).toFixed(1)}% (${(alone.wall / 1000).toFixed(1)} s wall)`,
      },
      {
        section,
        name: `host CPU per delivered frame, ${label}`,
        value: perFrameUs,
        unit: 'µs',
        note: `(host CPU followed - alone) / ${frames.toLocaleString('en-US')} frames of ${events.toLocaleString('en-US')} events (${(events / frames).toFixed(2)} events a frame); ${reconnects} reconnects of followers dropped as too slow`,
      },
      {
        section,
        name: `client processes' CPU, ${label}`,
        value: share(used.clients, used.wall),
        unit: '% of a core',
        note: `${clientProcessCount} processes ${readerDoes[reader]}; the bench process (paced model): ${share(used.own, used.wall).toFixed(1)}%; 2 cores in all`,
      },
    ];
  });
}
