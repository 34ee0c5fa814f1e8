import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import type { SessionEvent } from '@dsh/gen/events';
import { SessionService, type FollowResponse } from '@dsh/gen/service';
import { afterEach, describe, expect, it } from 'vitest';
import { importedSessionId, watchClaudeCode, type ClaudeCodeWatch } from '../src/index.js';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { startServer, type RunningServer } from '@dsh/server';
import { iterate } from '@dsh/server/test-kit';
import {
  fixtureSessionId,
  importSandbox,
  rendition,
  transcriptLines,
  type ImportSandbox,
} from './import-test-kit.js';

const mainId = importedSessionId(fixtureSessionId);

/** A real host over a data dir, with the transcript watch attached to its store. */
interface WatchedHost {
  readonly store: FileJournalStore;
  readonly server: RunningServer;
  readonly watch: ClaudeCodeWatch;
  readonly client: Client<typeof SessionService>;
  close(): Promise<void>;
}

async function startWatchedHost(sandbox: ImportSandbox): Promise<WatchedHost> {
  const store = await createJournalStore({ dataDir: sandbox.dataDir });
  const server = await startServer({
    store,
    port: 0,
    log: () => {},
    follow: { heartbeatMs: 60_000 },
  });
  const watch = await watchClaudeCode(store, sandbox.projects, { pollMs: 200 });
  const client = createClient(
    SessionService,
    createConnectTransport({ baseUrl: server.url, httpVersion: '1.1' }),
  );
  return {
    store,
    server,
    watch,
    client,
    async close() {
      await watch.close();
      await server.close();
      await store.close();
    },
  };
}

/** Reads follow frames until the event with seq `last` arrives; returns the events. */
async function eventsThrough(
  it: AsyncIterator<FollowResponse>,
  last: number,
): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for (;;) {
    const next = await it.next();
    if (next.done === true) throw new Error(`the stream ended after ${events.at(-1)?.seq}`);
    if (next.value.frame.case !== 'event') continue;
    events.push(next.value.frame.value.event!);
    if (events.at(-1)!.seq >= last) return events;
  }
}

let sandbox: ImportSandbox | undefined;
const hosts: WatchedHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close().catch(() => {});
  await sandbox?.close();
  sandbox = undefined;
});

describe('watchClaudeCode()', () => {
  it('streams appended transcript lines to a Follow client in order, across a host restart', async () => {
    sandbox = await importSandbox(8);
    const lines = await transcriptLines();
    let host = await startWatchedHost(sandbox);
    hosts.push(host);
    const ac = new AbortController();
    const follow = iterate(host.client.follow({ sessionId: mainId }, { signal: ac.signal }));
    const opening = await follow.next();
    expect(opening.value?.frame.case).toBe('opening');
    const start = (await host.store.open(mainId)).length;
    const received = await eventsThrough(follow, start - 1);

    // Lines arrive one batch at a time; one is written in two parts, as a writer might.
    await appendFile(sandbox.mainPath, lines.slice(8, 12).join(''));
    const half = lines[12]!;
    await appendFile(sandbox.mainPath, half.slice(0, 40));
    await host.watch.scan();
    await appendFile(sandbox.mainPath, half.slice(40) + lines.slice(13, 20).join(''));
    const journal = await host.store.open(mainId);
    await waitFor(async () => {
      await host.watch.scan();
      return journal.length > start;
    });
    await host.watch.scan();
    received.push(...(await eventsThrough(follow, journal.length - 1)));
    ac.abort();
    expect(received.map((e) => e.seq)).toEqual(range(0, journal.length));
    expect(rendition(received)).toEqual(rendition(await journal.read(0, journal.length)));
    expect(callIds(received)).toEqual([
      'toolu_glob',
      'toolu_read',
      'toolu_grep',
      'toolu_grepf',
      'toolu_edit',
      'toolu_write',
      'toolu_bash',
      'toolu_bash2',
    ]);

    // The host goes down; the transcript keeps growing; a new host resumes after the last seq.
    const lastSeq = received.at(-1)!.seq;
    await host.close();
    hosts.splice(0);
    await appendFile(sandbox.mainPath, lines.slice(20).join(''));
    host = await startWatchedHost(sandbox);
    hosts.push(host);
    const resumed = iterate(
      host.client.follow(
        { sessionId: mainId, afterSeq: lastSeq },
        { signal: new AbortController().signal },
      ),
    );
    const reopened = await resumed.next();
    expect(reopened.value?.frame).toMatchObject({
      case: 'opening',
      value: { firstSeq: lastSeq + 1 },
    });
    const total = (await host.store.open(mainId)).length;
    const rest = await eventsThrough(resumed, total - 1);
    expect(rest.map((e) => e.seq)).toEqual(range(lastSeq + 1, total));
    expect(callIds(rest)).toContain('toolu_slow');
    expect(rest.at(-1)?.payload).toMatchObject({ case: 'turnEnd', value: { turn: 3 } });
  });

  it('streams a line appended while the client follows live, without a manual scan', async () => {
    sandbox = await importSandbox(2);
    const lines = await transcriptLines();
    const host = await startWatchedHost(sandbox);
    hosts.push(host);
    const ac = new AbortController();
    const journal = await host.store.open(mainId);
    const follow = iterate(
      host.client.follow(
        { sessionId: mainId, afterSeq: journal.length - 1 },
        { signal: ac.signal },
      ),
    );
    await follow.next();
    await appendFile(sandbox.mainPath, lines.slice(2, 7).join(''));
    const [next] = await eventsThrough(follow, journal.length);
    ac.abort();
    expect(next?.payload).toMatchObject({ case: 'assistantMessage', value: { turn: 1 } });
  });

  it('picks up a transcript created after the watch started', async () => {
    sandbox = await importSandbox(0);
    const host = await startWatchedHost(sandbox);
    hosts.push(host);
    const path = sandbox.mainPath.replace(fixtureSessionId, 'fresh-session');
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, (await transcriptLines(3)).join(''));
    await waitFor(async () =>
      (await host.store.list()).some((s) => s.header.sessionId === 'cc-fresh-session'),
    );
  });
});

function callIds(events: readonly SessionEvent[]): string[] {
  return events.flatMap((e) => (e.payload.case === 'toolCall' ? [e.payload.value.callId] : []));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}
