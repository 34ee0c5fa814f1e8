import { copyFile, readdir, readFile, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalsDir } from '@dsh/fixtures/journals';
import {
  createProjectionRegistry,
  standardProjections,
  maxEventLineBytes,
  type ProjectionRegistry,
} from '@dsh/journal';
import { createJournalStore } from '../src/index.js';
import { conversation, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
const id = 'indexed';
const fixtureNames = (await readdir(journalsDir))
  .filter((n) => n.endsWith('.jsonl'))
  .map((n) => n.slice(0, -'.jsonl'.length));
const other = 'other';
const journalPath = () => join(dir, `${id}.jsonl`);
const indexPath = () => join(dir, `${id}.idx`);

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // About 1,700 events: six whole 256-event blocks and a partial one.
  await writeJournal(dir, id, conversation(400));
  await writeJournal(dir, other, conversation(400).slice(3));
  await served({ log: [] }); // writes both indexes
  await served({ log: [] }, other);
});
afterEach(async () => {
  await cleanup();
});

/**
 * Everything a client can get of a session: every event, the tail page with its
 * baselines and older pages, through a store over `dir`.
 */
async function served(
  options: { indexFiles?: boolean; log: string[]; projections?: ProjectionRegistry },
  sessionId = id,
) {
  const store = await createJournalStore({
    dataDir: dir,
    catalogCache: false,
    indexFiles: options.indexFiles,
    projections: options.projections,
    log: (line) => options.log.push(line),
  });
  try {
    const journal = await store.open(sessionId);
    const length = journal.length;
    const pages = [];
    for (const before of [undefined, length - 1, 700, 513, 256, 255, 7]) {
      for (const max of [1, 50]) pages.push(await journal.page(before, max));
    }
    return { length, events: await journal.read(0, length), pages };
  } finally {
    await store.close();
  }
}

/** What a full scan of the journal, without any index, serves. */
function rescan(projections?: ProjectionRegistry) {
  return served({ indexFiles: false, log: [], projections });
}

/** Appends `count` events through a store (its index written as usual). */
async function appendEvents(count: number): Promise<void> {
  const store = await createJournalStore({ dataDir: dir, catalogCache: false });
  const journal = await store.open(id);
  await journal.append(conversation(200).slice(0, count));
  await store.close();
}

const damages: {
  name: string;
  damage: () => Promise<void>;
  log: RegExp | undefined;
  projections?: ProjectionRegistry;
}[] = [
  { name: 'intact', damage: async () => {}, log: undefined },
  {
    name: 'missing',
    damage: () => unlink(indexPath()),
    log: /no index file indexed\.idx: indexed \d+ events from the journal/,
  },
  {
    name: 'garbage',
    damage: () => writeFile(indexPath(), 'not an index at all\n'.repeat(100)),
    log: /is damaged .*: rebuilt it from the journal/,
  },
  {
    name: 'empty',
    damage: () => writeFile(indexPath(), ''),
    log: /is damaged .*: rebuilt it from the journal/,
  },
  {
    name: 'truncated in its last record',
    damage: async () => truncate(indexPath(), (await stat(indexPath())).size - 100),
    log: /is damaged \(record at byte \d+: torn .*\): kept its first 1280 events/,
  },
  {
    name: 'a checksum mismatch in its first block (found when a read needs it)',
    damage: () => flipByte(indexPath(), 300),
    log: /is damaged \(record before byte \d+: checksum mismatch\): indexed its first \d+ events from the journal again/,
  },
  {
    name: 'a middle block that does not join its neighbours',
    damage: async () => {
      const data = await readFile(indexPath());
      const foreign = await readFile(join(dir, `${other}.idx`));
      // Bytes of another session's index over the middle blocks.
      foreign.copy(data, 3000, 3000, 6000);
      await writeFile(indexPath(), data);
    },
    log: /is damaged \(record .*\): indexed its first \d+ events from the journal again/,
  },
  {
    name: 'a checksum mismatch in its last block',
    damage: async () => flipByte(indexPath(), (await stat(indexPath())).size - 50),
    log: /checksum mismatch\): kept its first 1280 events/,
  },
  {
    name: 'stale: the journal grew after the index was last written',
    damage: async () => {
      await copyFile(indexPath(), join(dir, 'saved.idx'));
      await appendEvents(600);
      await copyFile(join(dir, 'saved.idx'), indexPath());
    },
    log: /covered 1536 of \d+ events \(the journal grew after its last write\)/,
  },
  {
    name: "another session's index",
    damage: () => copyFile(join(dir, `${other}.idx`), indexPath()),
    log: /for another journal .*: rebuilt it/,
  },
  {
    name: 'longer than the journal (a journal restored from a backup)',
    damage: async () => {
      await copyFile(journalPath(), join(dir, 'saved.jsonl'));
      await appendEvents(600);
      await copyFile(join(dir, 'saved.jsonl'), journalPath());
    },
    log: /is longer than the journal .*: rebuilt it/,
  },
  {
    name: 'lines moved (a middle line edited to another length)',
    damage: async () => {
      const text = await readFile(journalPath(), 'utf8');
      await writeFile(journalPath(), text.replace('"question 20"', '"question twenty"'));
    },
    log: /does not match the journal \(line of seq \d+ not at byte \d+\): rebuilt it/,
  },
  {
    name: 'folded by other projections (a price table)',
    damage: async () => {},
    projections: createProjectionRegistry(
      standardProjections(
        new Map([['demo', { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }]]),
      ),
    ),
    log: /is folded by other projections: rebuilt it/,
  },
];

async function flipByte(path: string, at: number): Promise<void> {
  const data = await readFile(path);
  data[at] = (data[at] as number) ^ 0xff;
  await writeFile(path, data);
}

describe('the persisted index on open', () => {
  it.each(damages)(
    '$name: serves every event exactly as a full scan, says what it did and repairs the index',
    async ({ damage, log, projections }) => {
      await damage();
      const journalBefore = await readFile(journalPath());
      const expected = await rescan(projections);
      const lines: string[] = [];
      expect(await served({ log: lines, projections })).toEqual(expected);
      if (log === undefined) expect(lines).toEqual([]);
      else expect(lines).toEqual([expect.stringMatching(log)]);
      // The journal is the source of truth: opening it never changed a byte of it.
      expect(await readFile(journalPath())).toEqual(journalBefore);
      // The index was written again: the next open uses it whole and says nothing.
      const again: string[] = [];
      expect(await served({ log: again, projections })).toEqual(expected);
      expect(again).toEqual([]);
    },
  );

  it('keeps an oversized line (from an older host) through the index', async () => {
    const lines = (await readFile(journalPath(), 'utf8')).split('\n');
    const head = '{"seq":300,"time":"2026-01-01T00:00:00.000Z","type":"tool/result","x":"';
    lines[301] = `${head}${'x'.repeat(maxEventLineBytes)}"}`;
    await writeFile(journalPath(), lines.join('\n'));
    const expected = await rescan();
    expect(expected.events[300]?.payload.case).toBe('extension');
    const log: string[] = [];
    expect(await served({ log })).toEqual(expected);
    expect(log).toEqual([expect.stringMatching(/does not match the journal/)]);
    expect(await served({ log: [] })).toEqual(expected);
  });

  it('goes to the trash with its journal, and a small journal has none', async () => {
    const store = await createJournalStore({ dataDir: dir, catalogCache: false });
    const small = await store.create({ cwd: '/w', sessionId: 'small' });
    await small.append(conversation(3));
    const trash = await store.remove(id);
    await store.close();
    expect((await readdir(trash)).sort()).toEqual([`${id}.idx`, `${id}.jsonl`]);
    expect((await readdir(dir)).filter((name) => name.startsWith('small'))).toEqual([
      'small.jsonl',
    ]);
  });

  it('keeps the index current through appends, so a reopen scans only the last block', async () => {
    await appendEvents(1000);
    const lines: string[] = [];
    expect(await served({ log: lines })).toEqual(await rescan());
    expect(lines).toEqual([]);
  });
});

describe('the persisted index read from its end', () => {
  it('serves the tail page from the last block and reads the others only when a page needs them', async () => {
    await flipByte(indexPath(), 300);
    const expected = await rescan();
    const lines: string[] = [];
    const store = await createJournalStore({
      dataDir: dir,
      catalogCache: false,
      log: (line) => lines.push(line),
    });
    try {
      const journal = await store.open(id);
      expect(await journal.page(undefined, 50)).toEqual(expected.pages[1]);
      expect(lines).toEqual([]);
      expect(await journal.page(7, 50)).toEqual(expected.pages.at(-1));
      expect(lines).toEqual([expect.stringMatching(/is damaged .*checksum mismatch/)]);
    } finally {
      await store.close();
    }
  });
});

describe('the persisted index of every fixture', () => {
  it.each(fixtureNames)(
    '%s, repeated past three blocks: intact and torn, it serves what a full scan serves',
    async (name) => {
      const lines = (await readFile(join(journalsDir, `${name}.jsonl`), 'utf8'))
        .split('\n')
        .filter((line) => line !== '');
      const events = lines.slice(1);
      const out = [lines[0]!.replace(/"sessionId":"[^"]*"/, `"sessionId":"${name}"`)];
      for (let seq = 0; seq < 3 * 256 + 40; seq += 1) {
        out.push(events[seq % events.length]!.replace(/^\{"seq":\d+,/, `{"seq":${seq},`));
      }
      await writeFile(join(dir, `${name}.jsonl`), `${out.join('\n')}\n`);
      const expected = await served({ indexFiles: false, log: [] }, name);
      expect(await served({ log: [] }, name)).toEqual(expected);
      const index = join(dir, `${name}.idx`);
      expect((await stat(index)).size).toBeGreaterThan(3 * 256 * 9);
      expect(await served({ log: [] }, name)).toEqual(expected);
      await truncate(index, (await stat(index)).size - 10);
      const log: string[] = [];
      expect(await served({ log }, name)).toEqual(expected);
      expect(log).toEqual([expect.stringMatching(/is damaged .*: kept its first 512 events/)]);
    },
  );
});
