import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJsonString } from '@bufbuild/protobuf';
import { createConversation } from '@dsh/card-models';
import { createPrng } from '@dsh/fixtures';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { afterEach, describe, expect, it } from 'vitest';
import {
  importClaudeCode,
  importCodex,
  importRollout,
  watchCodex,
  type FlushMode,
} from '../src/index.js';
import {
  allEvents,
  cardsByCallId,
  rendition,
  sharedSuiteName,
  sharedTranscripts,
} from './import-test-kit.js';

const rollouts = sharedTranscripts === undefined ? '' : join(sharedTranscripts, 'codex');
const dirs: string[] = [];
const stores: FileJournalStore[] = [];

async function freshStore(): Promise<FileJournalStore> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-codex-test-'));
  dirs.push(dir);
  const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function sessions(store: FileJournalStore): Promise<Record<string, SessionEvent[]>> {
  const out: Record<string, SessionEvent[]> = {};
  for (const summary of await store.list()) {
    out[summary.header.sessionId] = await allEvents(await store.open(summary.header.sessionId));
  }
  return out;
}

/**
 * What a rollout's usage must add up to: its last `total_token_usage.total_tokens`, plus
 * the total reached before each point where Codex started counting again (a resumed
 * session).
 */
async function reportedTotal(path: string): Promise<number> {
  let done = 0;
  let total = 0;
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (!line.includes('"token_count"')) continue;
    const item = JSON.parse(line) as {
      payload: { info?: { total_token_usage?: { total_tokens?: number } } | null };
    };
    const next = item.payload.info?.total_token_usage?.total_tokens ?? total;
    if (next < total) done += total;
    total = next;
  }
  return done + total;
}

describe.skipIf(sharedTranscripts === undefined)(
  sharedSuiteName('importCodex() of real rollouts'),
  () => {
    it('imports every rollout once: re-running adds nothing', async () => {
      const store = await freshStore();
      const first = await importCodex(store, rollouts);
      const files = (await readdir(rollouts)).filter((f) => f.endsWith('.jsonl'));
      expect(first.failed).toEqual([]);
      expect(first.sessions).toHaveLength(files.length);
      expect(first.events).toBeGreaterThan(0);
      const again = await importCodex(store, rollouts);
      expect({ events: again.events, sessions: again.sessions }).toEqual({
        events: 0,
        sessions: first.sessions,
      });
    });

    it('counts each response once: message usage adds up to the rollout’s own total', async () => {
      const store = await freshStore();
      await importCodex(store, rollouts);
      for (const file of (await readdir(rollouts)).filter((f) => f.endsWith('.jsonl'))) {
        const id = `codex-${/([0-9a-f]{8}-[0-9a-f-]{27,})\.jsonl$/.exec(file)![1]}`;
        let sum = 0;
        for (const event of await allEvents(await store.open(id))) {
          if (event.payload.case !== 'assistantMessage') continue;
          const usage = event.payload.value.usage;
          sum +=
            (usage?.inputTokens ?? 0) + (usage?.cacheReadTokens ?? 0) + (usage?.outputTokens ?? 0);
        }
        expect({ file, sum }).toEqual({ file, sum: await reportedTotal(join(rollouts, file)) });
      }
    });

    it('shows shell calls as terminals, patches as diffs and plans as todos (0.40)', async () => {
      const store = await freshStore();
      const file = join(
        rollouts,
        'jnarowski-agentcmd__rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl',
      );
      await importCodex(store, file);
      const events = await allEvents(
        await store.open('codex-01997e76-d124-7592-9cac-2ec05abbca08'),
      );
      const kinds = new Map<string, number>();
      for (const card of cardsByCallId(events).values())
        kinds.set(card.body.kind, (kinds.get(card.body.kind) ?? 0) + 1);
      const calls = events.filter((e) => e.payload.case === 'toolCall').length;
      expect(calls).toBeGreaterThan(100);
      expect(kinds.get('terminal')).toBeGreaterThan(calls / 2);
      expect(kinds.get('diff')).toBeGreaterThan(10);
      expect(kinds.get('todo')).toBeGreaterThan(0);
      expect(events.filter((e) => e.payload.case === 'turnEnd').length).toBeGreaterThan(4);
    });

    it('writes the smallest rollout as it always has', async () => {
      const store = await freshStore();
      const id = 'codex-01997ea4-a70d-7da3-8c20-c736db82a7c5';
      await importCodex(
        store,
        join(
          rollouts,
          'jnarowski-agentcmd__rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl',
        ),
      );
      const journal = await store.open(id);
      expect({
        title: journal.header.title,
        cwd: journal.header.cwd,
        origin: journal.header.origin,
      }).toMatchSnapshot();
      expect(rendition(await allEvents(journal))).toMatchSnapshot();
    });

    it('refuses rollouts as Claude Code transcripts and the other way round, naming the fix', async () => {
      const store = await freshStore();
      const claude = await importClaudeCode(store, rollouts);
      expect(claude.sessions).toEqual([]);
      expect(claude.skipped.every((s) => s.reason.includes('dsh import codex'))).toBe(true);
      expect(claude.skipped.length).toBeGreaterThan(0);
      const codex = await importCodex(
        store,
        join(sharedTranscripts!, 'claude-code', '-proj-happy'),
      );
      expect(codex.sessions).toEqual([]);
      expect(codex.skipped.length).toBeGreaterThan(0);
      expect(codex.skipped.every((s) => s.reason.includes('dsh import claude-code'))).toBe(true);
    });
  },
);

describe.skipIf(sharedTranscripts === undefined)(
  sharedSuiteName('the shared transcripts as the clients show them'),
  () => {
    it('have no row that reads "unknown event", in either format', async () => {
      const store = await freshStore();
      const claude = await importClaudeCode(store, join(sharedTranscripts!, 'claude-code'));
      const codex = await importCodex(store, rollouts);
      expect([...claude.failed, ...codex.failed]).toEqual([]);
      const unknown: string[] = [];
      for (const [id, events] of Object.entries(await sessions(store))) {
        const snapshot = createConversation().apply({ kind: 'replace', events });
        for (const node of snapshot.nodes)
          if (node.kind === 'unknown') unknown.push(`${id}: ${node.type}`);
      }
      expect(Object.keys(await sessions(store)).length).toBeGreaterThan(10);
      expect(unknown).toEqual([]);
    });
  },
);

const json = (events: SessionEvent[], keep: (e: SessionEvent) => boolean) =>
  events.filter(keep).map((e) => toJsonString(SessionEventSchema, e).replace(/^\{"seq":\d+,/, '{'));

describe.skipIf(sharedTranscripts === undefined)(
  sharedSuiteName('a live Codex import replayed from real rollouts'),
  () => {
    it.each([
      ['lines', 0],
      ['chunks', 5],
      ['chunks with pauses', 11],
    ])(
      'written in %s equals the one-time import event by event',
      async (cut, seed) => {
        const next = createPrng(seed).next;
        const files = (await readdir(rollouts)).filter((f) => f.endsWith('.jsonl'));
        const once = await freshStore();
        await importCodex(once, rollouts);
        const live = await freshStore();
        const into = await mkdtemp(join(tmpdir(), 'dsh-codex-live-'));
        dirs.push(into);
        for (const file of files) {
          const text = await readFile(join(rollouts, file));
          const target = join(into, file);
          await writeFile(target, '');
          const pieces: Buffer[] = [];
          for (let at = 0; at < text.length;) {
            const end =
              cut === 'lines'
                ? text.indexOf(10, at) + 1 || text.length
                : at + 1 + Math.floor(next() ** 3 * 65536);
            pieces.push(text.subarray(at, end));
            at = end;
          }
          for (const piece of pieces) {
            await appendFile(target, piece);
            const flush: FlushMode = cut === 'chunks with pauses' && next() < 0.2 ? 'idle' : 'pass';
            await importRollout(live, target, { flush });
          }
          await importRollout(live, target, { flush: 'final' });
        }
        const expected = await sessions(once);
        const got = await sessions(live);
        expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
        const settled = (e: SessionEvent) => e.payload.case !== 'assistantChunk';
        for (const [id, events] of Object.entries(expected)) {
          expect({ id, events: json(got[id]!, settled) }).toEqual({
            id,
            events: json(events, settled),
          });
        }
        if (cut === 'chunks with pauses') {
          const chunks = Object.values(got)
            .flat()
            .filter((e) => !settled(e));
          expect(chunks.length).toBeGreaterThan(0);
        }
        // Line by line is thousands of passes: minutes on a loaded machine.
      },
      300_000,
    );
  },
);

describe.skipIf(sharedTranscripts === undefined)(sharedSuiteName('watchCodex()'), () => {
  it('follows a growing rollout and ends where a one-time import ends', async () => {
    const name =
      'jnarowski-agentcmd__rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl';
    const id = 'codex-01997ea4-a70d-7da3-8c20-c736db82a7c5';
    const text = await readFile(join(rollouts, name), 'utf8');
    const lines = text.split(/(?<=\n)/);
    const into = await mkdtemp(join(tmpdir(), 'dsh-codex-watch-'));
    dirs.push(into);
    const day = join(into, '2025', '09', '24');
    await mkdir(day, { recursive: true });
    await writeFile(join(day, name), lines.slice(0, 40).join(''));
    let clock = Date.now();
    const store = await freshStore();
    const watch = await watchCodex(store, into, { pollMs: 60_000, now: () => clock });
    try {
      const early = (await allEvents(await store.open(id))).length;
      expect(early).toBeGreaterThan(0);
      await appendFile(join(day, name), lines.slice(40).join(''));
      await watch.scan();
      // A pause shows the response being written as a preview; a long quiet ends the turn.
      clock += 60_000;
      await watch.scan();
      await watch.scan();
    } finally {
      await watch.close();
    }
    const once = await freshStore();
    await importCodex(once, join(rollouts, name));
    const settled = (e: SessionEvent) => e.payload.case !== 'assistantChunk';
    expect(json(await allEvents(await store.open(id)), settled)).toEqual(
      json(await allEvents(await once.open(id)), settled),
    );
  });
});
