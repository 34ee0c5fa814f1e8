import { appendFile, copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalsDir } from '@dsh/fixtures/journals';
import { userMessage } from '@dsh/fixtures';
import { toJson } from '@bufbuild/protobuf';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { encodeEventLine, maxPageBytes } from '@dsh/journal';
import { events as eventsOf } from '@dsh/fixtures';
import { createJournalStore } from '../src/index.js';
import { readTailBackwards } from '../src/read-tail-backwards.js';
import { conversation, journalText, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

const fixtureNames = (await readdir(journalsDir))
  .filter((n) => n.endsWith('.jsonl'))
  .map((n) => n.slice(0, -'.jsonl'.length));

const json = (list: readonly SessionEvent[]) => list.map((e) => toJson(SessionEventSchema, e));

/** The tail page the indexed journal serves, read through a store over `dir`. */
async function indexedTail(sessionId: string, maxMessages: number) {
  const store = await createJournalStore({ dataDir: dir, catalogCache: false, indexFiles: false });
  try {
    const page = await (await store.open(sessionId)).page(undefined, maxMessages);
    return { events: json(page.events), hasMore: page.hasMore };
  } finally {
    await store.close();
  }
}

async function backwardsTail(sessionId: string, maxMessages: number) {
  const page = await readTailBackwards(join(dir, `${sessionId}.jsonl`), sessionId, maxMessages);
  return page && { events: json(page.events), hasMore: page.hasMore };
}

describe('readTailBackwards', () => {
  it.each(fixtureNames)('equals the indexed tail page of fixture %s', async (name) => {
    await copyFile(join(journalsDir, `${name}.jsonl`), join(dir, `${name}.jsonl`));
    for (const max of [1, 3, 50, 1000]) {
      expect(await backwardsTail(name, max), `max ${max}`).toEqual(await indexedTail(name, max));
    }
  });

  it('equals the indexed tail page of a generated session across chunk edges', async () => {
    // ~60k events (~9 MiB): pages of 1,000 messages span several 1 MiB chunks.
    await writeJournal(dir, 'big', conversation(14_000));
    for (const max of [1, 2, 50, 1000]) {
      const page = await backwardsTail('big', max);
      expect(page, `max ${max}`).toEqual(await indexedTail('big', max));
      expect(page?.hasMore).toBe(true);
    }
  });

  it('cuts a page over the byte budget where the index cuts it', async () => {
    // 40 messages of 1.5 MiB: 50 of them pass the 32 MiB budget.
    const big = 'x'.repeat(1.5 * 1024 * 1024);
    const payloads = Array.from({ length: 40 }, (_, i) => userMessage(`${i} ${big}`));
    await writeJournal(dir, 'wide', payloads);
    const page = await backwardsTail('wide', 50);
    expect(page).toEqual(await indexedTail('wide', 50));
    const bytes = page!.events.length * big.length;
    expect(bytes).toBeLessThanOrEqual(maxPageBytes);
    expect(page!.hasMore).toBe(true);
  });

  const torn: { name: string; tail: string }[] = [
    { name: 'a last line without its newline', tail: '{"seq":11,"time":"2026-01-01T00:00' },
    { name: 'an unparseable last line', tail: '{"seq":11,"ti\n' },
  ];
  it.each(torn)('leaves out $name, as the open does', async ({ tail }) => {
    await writeJournal(dir, 'torn', conversation(3));
    await appendFile(join(dir, 'torn.jsonl'), tail);
    const page = await backwardsTail('torn', 50);
    expect(page?.events.length).toBe(11);
    expect(page).toEqual(await indexedTail('torn', 50));
  });

  const refused: { name: string; damage: (text: string) => string }[] = [
    {
      name: 'a bad middle line',
      damage: (text) => text.replace('"seq":5,', '"seq":55,'),
    },
    {
      name: 'a bad last line that parses',
      damage: (text) => `${text}{"seq":99,"time":"x","type":"user/message"}\n`,
    },
    {
      name: 'a gap before the first event',
      damage: (text) => text.replace(/\n\{"seq":0,[^\n]*/, ''),
    },
    {
      name: "another session's header",
      damage: (text) => text.replace('"sessionId":"bad"', '"sessionId":"other"'),
    },
  ];
  it.each(refused)('leaves $name to the open (undefined)', async ({ damage }) => {
    await writeJournal(dir, 'bad', conversation(3));
    const path = join(dir, 'bad.jsonl');
    await writeFile(path, damage(await readFile(path, 'utf8')));
    expect(await readTailBackwards(path, 'bad', 1000)).toBeUndefined();
  });

  it('pages an empty journal as no events', async () => {
    await writeFile(join(dir, 'empty.jsonl'), journalText('empty', []));
    expect(await backwardsTail('empty', 50)).toEqual({ events: [], hasMore: false });
  });

  it('reads no further back than it needs', async () => {
    // A journal whose first half is not even JSON: a tail page never reaches it.
    const list = eventsOf(conversation(200));
    const text = journalText('half', list).split('\n');
    text[3] = 'garbage';
    await writeFile(join(dir, 'half.jsonl'), text.join('\n'));
    const page = await backwardsTail('half', 5);
    expect(page?.events.at(-1)).toEqual(toJson(SessionEventSchema, list.at(-1)!));
    expect(page?.events.length).toBeGreaterThan(5);
    expect(encodeEventLine(list.at(-1)!)).toContain('"seq":');
  });
});
