import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLongJournal } from '@dsh/cli/long-journal';
import { decodeEventLine } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { percentile, sample, since, type BenchRow } from './bench-row.js';

/** Where generated journals are cached between runs (they are deterministic). */
export const benchDataDir = join(tmpdir(), 'dsh-bench-journals');

/** Writes (once) and returns the path of a generated journal of `events` events. */
export async function longJournal(events: number): Promise<string> {
  mkdirSync(benchDataDir, { recursive: true });
  const id = `long-${events}`;
  const path = join(benchDataDir, `${id}.jsonl`);
  if (!existsSync(path) || statSync(path).size === 0) {
    await writeLongJournal(path, events, { sessionId: id });
  }
  return path;
}

/**
 * The way file-based agent transcripts are usually loaded: read the whole file,
 * parse every line, then keep the last `maxMessages` messages.
 */
function wholeFileTailPage(path: string, maxMessages: number): number {
  const lines = readFileSync(path, 'utf8').split('\n');
  const events = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const decoded = decodeEventLine(line, i - 1);
    if (decoded.ok) events.push(decoded.value);
  }
  let messages = 0;
  let start = events.length;
  while (start > 0 && messages < maxMessages) {
    start--;
    const type = events[start]?.payload.case;
    if (type === 'userMessage' || type === 'assistantMessage') messages++;
  }
  return events.length - start;
}

/** Tail-page and mid-page latency against session size, with the whole-file comparison. */
export async function pageBench(sizes: readonly number[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tails = new Map<number, number>();
  for (const size of sizes) {
    const path = await longJournal(size);
    // Without the persisted index, so the open row stays the scan it names.
    const store = await createJournalStore({ dataDir: benchDataDir, indexFiles: false });
    const openStart = performance.now();
    const journal = await store.open(`long-${size}`);
    const openMs = since(openStart);
    const tail = await sample(50, () => journal.page(undefined, 50));
    const mid = await sample(50, () => journal.page(Math.floor(size / 2), 50));
    const label = size.toLocaleString('en-US');
    tails.set(size, percentile(tail, 50));
    rows.push(
      {
        section: 'page',
        name: `open (index build), ${label} events`,
        value: openMs,
        unit: 'ms',
        note: 'once per host start',
      },
      {
        section: 'page',
        name: `tail page p50, ${label} events`,
        value: percentile(tail, 50),
        unit: 'ms',
      },
      {
        section: 'page',
        name: `tail page p99, ${label} events`,
        value: percentile(tail, 99),
        unit: 'ms',
      },
      {
        section: 'page',
        name: `mid page p50, ${label} events`,
        value: percentile(mid, 50),
        unit: 'ms',
      },
    );
    const runs = size >= 1_000_000 ? 1 : 3;
    const whole = await sample(runs, async () => wholeFileTailPage(path, 50), 0);
    rows.push({
      section: 'page',
      name: `whole-file parse tail page, ${label} events`,
      value: percentile(whole, 50),
      unit: 'ms',
      note: 'comparison: read + parse the whole file',
    });
    await store.close();
  }
  const smallest = tails.get(sizes[0] as number);
  const largest = tails.get(sizes[sizes.length - 1] as number);
  if (smallest !== undefined && largest !== undefined) {
    rows.push({
      section: 'page',
      name: `tail page ratio ${sizes[sizes.length - 1]?.toLocaleString('en-US')} / ${sizes[0]?.toLocaleString('en-US')}`,
      value: largest / smallest,
      unit: 'x',
      note: 'target <= 1.5',
    });
  }
  return rows;
}
