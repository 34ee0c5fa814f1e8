import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournalStore } from '../src/index.js';
import { tempDir } from './journal-test-kit.js';

const child = fileURLToPath(new URL('./append-until-killed.ts', import.meta.url));

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

/** Runs the appending child until it acknowledged some events, kills it -9 after `ms`. */
async function appendThenKill(sessionId: string, ms: number): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, dir, sessionId], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let lastAck = -1;
  let killed = false;
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    proc.once('exit', (_code, signal) => resolve(signal)),
  );
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('ack ')) lastAck = Number(line.slice(4));
    if (lastAck >= 0 && !killed) {
      killed = true;
      setTimeout(() => proc.kill('SIGKILL'), ms);
    }
  });
  // A child that never got to append (it failed to start) would make this test pass idly.
  expect(await exited).toBe('SIGKILL');
  expect(lastAck).toBeGreaterThanOrEqual(0);
  return lastAck;
}

describe('appends killed with SIGKILL (subprocess)', () => {
  // Four child processes each start tsx and load the backend, which takes seconds apiece
  // on a loaded machine; a child that hangs still fails the test at this bound.
  it(
    'lose no acknowledged event, leave a tail the next open recovers and an index that serves the same',
    { timeout: 120_000 },
    async () => {
      const store = await createJournalStore({ dataDir: dir });
      const id = (await store.create({ cwd: '/work', sessionId: 'killed' })).header.sessionId;
      await store.close();
      let acknowledged = -1;
      for (const ms of [30, 150, 400, 80]) {
        acknowledged = Math.max(acknowledged, await appendThenKill(id, ms));
        const log: string[] = [];
        const reopened = await createJournalStore({ dataDir: dir, log: (l) => log.push(l) });
        const journal = await reopened.open(id);
        expect(journal.length).toBeGreaterThan(acknowledged);
        const events = await journal.read(0, journal.length);
        // The persisted index (current, stale or torn by the kill) serves what a full scan does.
        const rescan = await createJournalStore({ dataDir: dir, indexFiles: false });
        const scanned = await rescan.open(id);
        expect(scanned.length).toBe(journal.length);
        expect(await scanned.read(0, scanned.length)).toEqual(events);
        for (const before of [undefined, Math.floor(journal.length / 2)]) {
          expect(await journal.page(before, 20)).toEqual(await scanned.page(before, 20));
        }
        await rescan.close();
        for (const line of log) expect(line).toMatch(/index file killed\.idx/);
        events.forEach((event, seq) => {
          expect(event.seq).toBe(seq);
          const block =
            event.payload.case === 'userMessage' ? event.payload.value.content[0] : undefined;
          const text = block?.block.case === 'text' ? block.block.value.text : '';
          expect(text).toMatch(new RegExp(`^event ${seq} `));
        });
        await reopened.close();
        // Any torn tail was cut: the file ends with a whole line.
        expect((await readFile(join(dir, `${id}.jsonl`), 'utf8')).endsWith('\n')).toBe(true);
      }
    },
  );
});
