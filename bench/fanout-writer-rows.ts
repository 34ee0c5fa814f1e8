import { percentile, type BenchRow } from './bench-row.js';
import { isType, load, type ClientProcesses } from './client-processes.js';
import {
  cpuMeter,
  journalPath,
  monotonicUs,
  newSession,
  startTurn,
  turnEnded,
  withFollowers,
  withHost,
} from './fanout-host.js';
import { turnLines, waitTurnEnd } from './journal-turns.js';
import type { PacedModel } from './paced-model.js';

const section = 'fanout';

/** A writer run: how many followers, and the client processes' scheduling priority. */
interface WriterRun {
  readonly followers: number;
  readonly nice: number;
}

/**
 * The writer's cost of fan-out: the same agent workload (an answer of `writerChunks`
 * chunks streamed at once, so the agent loop appends as fast as it can) on a fresh host
 * with no follower and with `writerFollowers`, its event rate from the journal's own
 * times and the host CPU it took. The followed run goes twice: with the client processes
 * at the host's priority, then at nice 19, where they get only the CPU the host and the
 * bench leave, as followers on other machines would take none of it.
 */
export async function writerRows(
  dir: string,
  model: PacedModel,
  sizes: { writerChunks: number; writerFollowers: number },
  profiled: BenchRow[],
): Promise<BenchRow[]> {
  const runs: (WriterRun & { rate: number; cpuPerEvent: number; note: string })[] = [];
  const plan: WriterRun[] = [
    { followers: 0, nice: 0 },
    { followers: sizes.writerFollowers, nice: 0 },
    { followers: sizes.writerFollowers, nice: 19 },
  ];
  for (const { followers, nice } of plan) {
    runs.push(
      await withHost(
        dir,
        model,
        `writer-${followers}${nice === 0 ? '' : `-nice${nice}`}`,
        async (bench) => {
          const sessionId = await newSession(bench, 'writer');
          const measure = async (clients?: ClientProcesses) => {
            await startTurn(bench, sessionId, 200, 0);
            await waitTurnEnd(journalPath(bench, sessionId), 1, 60_000);
            if (clients !== undefined) {
              await clients.next(turnEnded(1), 120_000);
              clients.send({ type: 'reset' });
            }
            const meter = cpuMeter(bench, clients);
            const fromUs = monotonicUs();
            await startTurn(bench, sessionId, sizes.writerChunks, 0);
            await waitTurnEnd(journalPath(bench, sessionId), 2, 300_000);
            const used = meter();
            const label = `writer, ${runLabel({ followers, nice })}`;
            bench.window = { fromUs, toUs: monotonicUs(), label };
            const lines = await turnLines(journalPath(bench, sessionId), 2);
            const chunks = lines.filter((l) => l.type === 'assistant/chunk').length;
            const start = lines.find((l) => l.type === 'turn/start')?.timeMs ?? Number.NaN;
            const end = lines.find((l) => l.type === 'assistant/message')?.timeMs ?? Number.NaN;
            const rate = chunks / ((end - start) / 1000);
            let note = `${chunks.toLocaleString('en-US')} chunks in ${end - start} ms (journal times); host CPU ${used.host.toFixed(0)} ms, its main thread waited for a CPU ${used.wait.toFixed(0)} ms`;
            if (clients !== undefined) {
              await clients.next(turnEnded(2), 300_000);
              const results = clients.next(isType('follow-result'), 60_000);
              clients.send({ type: 'stop' });
              const done = await results;
              const latencies = done.flatMap((r) => r.latencies);
              const frames = done.reduce((sum, r) => sum + r.frames, 0);
              const events = done.reduce((sum, r) => sum + r.events, 0);
              const reconnects = done.reduce((sum, r) => sum + r.reconnects, 0);
              note += `; followers' append-to-receive p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, ${(events / frames).toFixed(1)} events a frame, ${reconnects} reconnects of followers dropped as too slow; client processes' CPU ${used.clients.toFixed(0)} ms`;
            }
            const cpuPerEvent = used.host / chunks;
            return { followers, nice, rate, cpuPerEvent, note: `${note}; ${load()}` };
          };
          return followers === 0
            ? measure()
            : withFollowers(bench, sessionId, followers, 'wire', (c) => measure(c), nice);
        },
        profiled,
      ),
    );
  }
  const [alone, ...followed] = runs as [(typeof runs)[0], ...typeof runs];
  return [
    ...runs.map((run) => ({
      section,
      name: `writer event rate, ${runLabel(run)}`,
      value: run.rate,
      unit: 'events/s',
      note: run.note,
    })),
    ...runs.map((run) => ({
      section,
      name: `writer host CPU per appended event, ${runLabel(run)}`,
      value: run.cpuPerEvent * 1000,
      unit: 'µs',
      note: 'host CPU over the turn / its assistant/chunk events (followers served meanwhile included)',
    })),
    ...followed.map((run) => ({
      section,
      name: `writer event rate with ${runLabel(run)} / without`,
      value: (run.rate / alone.rate) * 100,
      unit: '%',
      note:
        run.nice === 0
          ? `target >= 90% (fan-out costs the writer <= 10%); ${load()}`
          : 'the clients yield the cores to the host: what fan-out costs the host itself',
    })),
  ];
}

function runLabel({ followers, nice }: WriterRun): string {
  if (followers === 0) return 'no follower';
  return `${followers} followers${nice === 0 ? '' : `, clients at nice ${nice}`}`;
}
