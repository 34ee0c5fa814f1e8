/**
 * Streams a generated long session into a journal file, for paging demos and the
 * benchmark: `node host/cli/bin/run-ts.js host/cli/scripts/long-journal.ts OUT EVENTS [SEED]`.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { SessionEventSchema } from '@dsh/gen/events';
import { generateLongSession } from '@dsh/fixtures';
import { encodeHeaderLine, formatVersion, encodeEventLine, parseSessionId } from '@dsh/journal';

/** Options of `writeLongJournal`. */
export interface LongJournalOptions {
  /** PRNG seed of the generator (default 1). */
  seed?: number;
  /** Session id in the header; defaults to the file name without `.jsonl`. */
  sessionId?: string;
  cwd?: string;
}

const flushChars = 1 << 20;
const startMs = Date.UTC(2026, 0, 1);

/**
 * Writes a journal of exactly `events` generated events to `path` (replacing it),
 * encoding each with the journal codec and writing in ~1 MB batches, so a
 * 1,000,000-event journal never sits in memory. Resolves to the counts written.
 */
export async function writeLongJournal(
  path: string,
  events: number,
  options: LongJournalOptions = {},
): Promise<{ events: number; bytes: number }> {
  if (!Number.isInteger(events) || events < 0) {
    throw new Error(`writeLongJournal: events must be a non-negative integer, got ${events}`);
  }
  const id = parseSessionId(options.sessionId ?? basename(path).replace(/\.jsonl$/, ''));
  if (!id.ok) throw new Error(`writeLongJournal: ${id.error}; pass options.sessionId`);
  const file = await open(path, 'w');
  let bytes = 0;
  let batch: string[] = [];
  let batchChars = 0;
  const flush = async (): Promise<void> => {
    const data = batch.join('');
    batch = [];
    batchChars = 0;
    const { bytesWritten } = await file.write(data);
    bytes += bytesWritten;
  };
  try {
    const header = encodeHeaderLine({
      formatVersion,
      sessionId: id.value,
      cwd: options.cwd ?? '/home/dev/project',
      parentId: '',
      createdAt: new Date(startMs).toISOString(),
      model: 'demo',
      title: `Generated session (${events} events)`,
    });
    batch.push(`${header}\n`);
    let seq = 0;
    for (const payload of generateLongSession({ events, seed: options.seed ?? 1 })) {
      const event = create(SessionEventSchema, {
        seq,
        time: timestampFromMs(startMs + seq * 1000),
        payload,
      });
      const line = `${encodeEventLine(event)}\n`;
      batch.push(line);
      batchChars += line.length;
      seq++;
      if (batchChars >= flushChars) await flush();
    }
    await flush();
    return { events: seq, bytes };
  } finally {
    await file.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [out, count, seed] = process.argv.slice(2);
  const events = Number(count);
  if (!out || !Number.isInteger(events) || events < 0) {
    console.error('usage: long-journal.ts OUT EVENTS [SEED]');
    process.exit(2);
  }
  const started = performance.now();
  const result = await writeLongJournal(out, events, { seed: seed ? Number(seed) : 1 });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `wrote ${result.events} events (${result.bytes} bytes) to ${out} in ${seconds.toFixed(1)} s`,
  );
}
