import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { events as numbered, generateLongSession, type Payload } from '@dsh/fixtures';
import { SessionService } from '@dsh/gen/service';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { percentile, since, type BenchRow } from './bench-row.js';

function payloads(n: number): Payload[] {
  return numbered([...generateLongSession({ events: n, seed: 3 })]).map((e) => e.payload);
}

/**
 * Follow over real HTTP on 127.0.0.1: append-to-receive latency with 1, 10 and 100
 * followers (one event appended at a time), and events/s delivered to one follower.
 */
export async function followBench(quick: boolean): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-follow-'));
  const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  const server = await startServer({ store, port: 0, defaultCwd: dir, log: () => {} });
  const client = createClient(
    SessionService,
    createConnectTransport({ baseUrl: server.url, httpVersion: '1.1' }),
  );
  const rows: BenchRow[] = [];
  try {
    for (const followers of [1, 10, 100]) {
      const journal = await store.create({ cwd: dir });
      const sessionId = journal.header.sessionId;
      const appendedAt = new Map<number, number>();
      const latencies: number[] = [];
      const rounds = quick ? 50 : 200;
      const abort = new AbortController();
      let ready = 0;
      const received = new Map<number, number>();
      const waiters = new Map<number, () => void>();
      const streams = Array.from({ length: followers }, async () => {
        const stream = client.follow({ sessionId }, { signal: abort.signal, timeoutMs: 0 });
        try {
          for await (const frame of stream) {
            if (frame.frame.case === 'opening') ready++;
            if (frame.frame.case !== 'event') continue;
            const seq = frame.frame.value.event?.seq ?? -1;
            const at = appendedAt.get(seq);
            if (at !== undefined) latencies.push(since(at));
            const count = (received.get(seq) ?? 0) + 1;
            received.set(seq, count);
            if (count === followers) waiters.get(seq)?.();
          }
        } catch {
          // Aborted at the end of the round.
        }
      });
      while (ready < followers) await new Promise((r) => setTimeout(r, 5));
      const batch = payloads(rounds);
      for (let i = 0; i < rounds; i++) {
        const all = new Promise<void>((resolve) => waiters.set(i, resolve));
        appendedAt.set(i, performance.now());
        await journal.append([batch[i] as Payload]);
        await all;
      }
      abort.abort();
      await Promise.all(streams);
      rows.push(
        {
          section: 'follow',
          name: `append-to-receive p50, ${followers} follower(s)`,
          value: percentile(latencies, 50),
          unit: 'ms',
        },
        {
          section: 'follow',
          name: `append-to-receive p99, ${followers} follower(s)`,
          value: percentile(latencies, 99),
          unit: 'ms',
        },
      );
    }

    const journal = await store.create({ cwd: dir });
    const total = quick ? 20_000 : 100_000;
    const all = payloads(total);
    const abort = new AbortController();
    let last = -1;
    let opened = false;
    const done = new Promise<void>((resolve) => {
      void (async () => {
        try {
          for await (const frame of client.follow(
            { sessionId: journal.header.sessionId },
            { signal: abort.signal, timeoutMs: 0 },
          )) {
            if (frame.frame.case === 'opening') opened = true;
            if (frame.frame.case === 'event') last = frame.frame.value.event?.seq ?? last;
            if (last === total - 1) resolve();
          }
        } catch {
          resolve();
        }
      })();
    });
    while (!opened) await new Promise((r) => setTimeout(r, 5));
    const start = performance.now();
    for (let i = 0; i < total; i += 100) await journal.append(all.slice(i, i + 100));
    await done;
    const ms = since(start);
    abort.abort();
    rows.push({
      section: 'follow',
      name: `throughput to one follower (${total.toLocaleString('en-US')} events, appends of 100)`,
      value: total / (ms / 1000),
      unit: 'events/s',
      note: 'includes fdatasync per append',
    });
  } finally {
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
