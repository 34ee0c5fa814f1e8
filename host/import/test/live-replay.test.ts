import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { toJsonString } from '@bufbuild/protobuf';
import { createPrng } from '@dsh/fixtures';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findTranscripts,
  importClaudeCode,
  importTranscript,
  isInternalAgent,
  type FlushMode,
  type TranscriptFile,
} from '../src/index.js';
import { sharedSuiteName, sharedTranscripts } from './import-test-kit.js';

const projects = sharedTranscripts === undefined ? '' : join(sharedTranscripts, 'claude-code');

/** Every session of a store, as JSON lines per session id. */
async function dump(store: FileJournalStore, keep: (e: SessionEvent) => boolean = () => true) {
  const out: Record<string, string[]> = {};
  for (const summary of await store.list()) {
    const journal = await store.open(summary.header.sessionId);
    const events = (await journal.read(0, journal.length)).filter(keep);
    out[summary.header.sessionId] = events.map((e) => toJsonString(SessionEventSchema, e));
  }
  return out;
}

/** Without seq, so event lists that differ only by skipped previews line up. */
function withoutSeq(sessions: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(sessions).map(([id, lines]) => [
      id,
      lines.map((line) => line.replace(/^\{"seq":\d+,/, '{')),
    ]),
  );
}

type Cut = 'lines' | 'chunks' | 'chunks with pauses';

/**
 * Writes the project's transcripts into `into` piece by piece, as Claude Code would,
 * running a watch pass after every piece (`lines`: one line at a time; `chunks`: random
 * sizes of 1 byte to 64 KiB, so lines are often half-written), then the pass a quiet
 * transcript gets.
 */
async function replay(store: FileJournalStore, from: string, into: string, cut: Cut, seed: number) {
  const next = createPrng(seed).next;
  const files = await findTranscripts(from);
  for (const file of files) {
    // Left out as `importClaudeCode` and the watch leave them out.
    if (file.kind === 'subagent' && isInternalAgent(file.path)) continue;
    const target: TranscriptFile = { ...file, path: join(into, relative(from, file.path)) };
    await mkdir(dirname(target.path), { recursive: true });
    await writeFile(target.path, '');
    const text = await readFile(file.path);
    const pieces: Buffer[] = [];
    if (cut === 'lines') {
      let start = 0;
      for (let i = text.indexOf(10); i !== -1; i = text.indexOf(10, i + 1)) {
        pieces.push(text.subarray(start, i + 1));
        start = i + 1;
      }
      pieces.push(text.subarray(start));
    } else {
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(next() ** 3 * 65536);
        pieces.push(text.subarray(at, at + size));
        at += size;
      }
    }
    for (const piece of pieces) {
      await appendFile(target.path, piece);
      const flush: FlushMode = cut === 'chunks with pauses' && next() < 0.15 ? 'idle' : 'pass';
      await importTranscript(store, target, { flush });
    }
    await importTranscript(store, target, { flush: 'final' });
  }
}

describe.skipIf(sharedTranscripts === undefined)(
  sharedSuiteName('a live import replayed from real transcripts'),
  () => {
    const dirs: string[] = [];
    let oneShot: Record<string, Record<string, string[]>> = {};
    const projectNames = ['-proj-dkimuson', '-proj-happy', '-proj-spotter'];

    beforeAll(async () => {
      for (const project of projectNames) {
        const dir = await mkdtemp(join(tmpdir(), 'dsh-replay-once-'));
        dirs.push(dir);
        await cp(join(projects, project), join(dir, 'projects', project), { recursive: true });
        const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
        const summary = await importClaudeCode(store, join(dir, 'projects'));
        expect(summary.failed).toEqual([]);
        oneShot[project] = await dump(store);
        await store.close();
      }
    });
    afterAll(async () => {
      oneShot = {};
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    });

    it.each(
      projectNames.flatMap((project, i) => [
        [project, 'chunks' as Cut, 7 + i],
        [project, 'lines' as Cut, 0],
      ]),
    )('%s written in %s equals the one-time import event by event', async (project, cut, seed) => {
      const dir = await mkdtemp(join(tmpdir(), 'dsh-replay-live-'));
      dirs.push(dir);
      const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
      try {
        await replay(store, join(projects, project), join(dir, 'projects', project), cut, seed);
        const live = await dump(store);
        expect(Object.keys(live).sort()).toEqual(Object.keys(oneShot[project]!).sort());
        for (const [id, lines] of Object.entries(oneShot[project]!)) {
          expect({ id, lines: live[id] }).toEqual({ id, lines });
        }
      } finally {
        await store.close();
      }
    });

    it.each(projectNames)(
      '%s written with pauses shows previews, and otherwise equals the one-time import',
      async (project) => {
        const dir = await mkdtemp(join(tmpdir(), 'dsh-replay-pause-'));
        dirs.push(dir);
        const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
        try {
          await replay(
            store,
            join(projects, project),
            join(dir, 'projects', project),
            'chunks with pauses',
            3,
          );
          const previews = Object.values(
            await dump(store, (e) => e.payload.case === 'assistantChunk'),
          );
          const live = withoutSeq(await dump(store, (e) => e.payload.case !== 'assistantChunk'));
          expect(live).toEqual(withoutSeq(oneShot[project]!));
          expect(previews.flat().length).toBeGreaterThan(0);
        } finally {
          await store.close();
        }
      },
    );
  },
);
