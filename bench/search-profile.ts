/**
 * `node host/cli/bin/run-ts.js bench/search-profile.ts [CASE] [RUNS]`: runs one case of
 * the search bench RUNS times (default 20, after a warm-up) with a 10 ms timer and a CPU
 * profile of the host thread, and prints what held the event loop: per search the first
 * page, the host thread's CPU time and minor page faults (both from /proc, so the
 * machine's load does not change them), the CPU between ticks, and for each tick later
 * than 15 ms the profile's samples in its window (self time by function, idle and GC
 * samples, and the longest gap between samples: a gap is time the thread was not on a
 * core). CASE is `rare` or `common` (across the 1,000-session corpus, written by the
 * search bench) or `long-rare` / `long-common` (the 1M-event session). A diagnosis tool,
 * not a bench row; Linux only.
 */
import { openSync, readSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { checkSearchQuery } from '@dsh/journal';
import { createFileJournalBackend, createRipgrepSearch } from '@dsh/journal-file';
import { benchDataDir } from './page-bench.js';

const which = process.argv[2] ?? 'common';
const runs = Number(process.argv[3] ?? 20);
const long = which.startsWith('long');
const text = which.endsWith('rare') ? (long ? '(request 25000).' : 'xylophone-quartz') : 'config';
const backend = await createFileJournalBackend({
  dataDir: long ? benchDataDir : join(benchDataDir, 'search-corpus-1000'),
});
await backend.catalog.settled();
const query = checkSearchQuery({
  query: text,
  caseSensitive: false,
  regex: false,
  sessionId: long ? 'long-1000000' : '',
  kinds: [],
  toolNames: [],
  limit: 50,
  cursor: '',
});
const searcher = createRipgrepSearch(backend);
const signal = new AbortController().signal;

/** Reads a /proc file of this thread again and again without allocating a stream. */
function procReader(name: string): () => string {
  const fd = openSync(`/proc/thread-self/${name}`, 'r');
  const buffer = Buffer.alloc(1024);
  return () => buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
}
const schedstat = procReader('schedstat');
const stat = procReader('stat');
const cpuMs = () => Number(schedstat().split(' ')[0]) / 1e6;
const minorFaults = () => {
  const line = stat();
  return Number(line.slice(line.lastIndexOf(')') + 2).split(' ')[7]);
};
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const ticks: { from: number; to: number; lag: number; cpu: number }[] = [];
let measuring = false;
let last = { at: nowUs(), cpu: cpuMs() };
const timer = setInterval(() => {
  const tick = { at: nowUs(), cpu: cpuMs() };
  const lag = (tick.at - last.at) / 1000 - 10;
  if (measuring) ticks.push({ from: last.at, to: tick.at, lag, cpu: tick.cpu - last.cpu });
  last = tick;
}, 10);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const searches: { ms: number; cpu: number; faults: number }[] = [];
for (let i = 0; i <= runs; i++) {
  measuring = i > 0;
  const before = { at: performance.now(), cpu: cpuMs(), faults: minorFaults() };
  const page = await searcher.search(query, { signal });
  const ms = performance.now() - before.at;
  if (i === 0) console.log(`warm-up: ${ms.toFixed(1)} ms, ${page.hits.length} hits`);
  else searches.push({ ms, cpu: cpuMs() - before.cpu, faults: minorFaults() - before.faults });
  measuring = false;
  await new Promise((resolve) => setTimeout(resolve, 30));
}
const { profile } = await session.post('Profiler.stop');
clearInterval(timer);
session.disconnect();
await backend.close();

const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
const p99 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.ceil(list.length * 0.99) - 1]!;
console.log(
  `${which}, ${searches.length} searches (medians): first page ${median(searches.map((s) => s.ms)).toFixed(1)} ms, ` +
    `host-thread CPU ${median(searches.map((s) => s.cpu)).toFixed(1)} ms, minor faults ${median(searches.map((s) => s.faults))}`,
);
const lags = ticks.map((t) => t.lag);
const cpus = ticks.map((t) => t.cpu);
console.log(
  `${ticks.length} ticks: lag p99 ${p99(lags).toFixed(1)} ms (max ${Math.max(...lags).toFixed(1)}), ` +
    `CPU between ticks p99 ${p99(cpus).toFixed(1)} ms (max ${Math.max(...cpus).toFixed(1)})`,
);

// The samples of each late tick's window, by function.
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const label = (id: number) => {
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  return `${functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
};
const times: number[] = [];
let at = profile.startTime;
for (const delta of profile.timeDeltas ?? []) times.push((at += delta));
for (const tick of ticks.filter((t) => t.lag > 15)) {
  const inside = (profile.samples ?? []).flatMap((id, i) =>
    times[i]! >= tick.from && times[i]! <= tick.to ? [{ id, at: times[i]! }] : [],
  );
  let gap = 0;
  for (let i = 1; i < inside.length; i++) gap = Math.max(gap, inside[i]!.at - inside[i - 1]!.at);
  const self = new Map<string, number>();
  for (const { id } of inside) self.set(label(id), (self.get(label(id)) ?? 0) + 1);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 6);
  console.log(
    `late ${tick.lag.toFixed(1)} ms, CPU ${tick.cpu.toFixed(1)} ms, ${inside.length} samples, ` +
      `longest gap ${(gap / 1000).toFixed(1)} ms: ${top.map(([name, n]) => `${n} ${name}`).join(' | ')}`,
  );
}
