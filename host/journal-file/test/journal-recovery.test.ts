import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { events, userMessage } from '@dsh/fixtures';
import { encodeEventLine, JournalError, maxEventLineBytes, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '../src/index.js';
import { conversation, header, journalText, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: JournalStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = await createJournalStore({ dataDir: dir });
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

const good = events(conversation(3));
const goodText = journalText('s', good);

describe('open() recovery', () => {
  const torn: [string, string][] = [
    ['a line cut without its newline', goodText + '{"seq":' + good.length + ',"time":"20'],
    [
      'a whole line without its newline',
      goodText + encodeEventLine(events([userMessage('x')], good.length)[0]!),
    ],
    ['an unparseable last line', goodText + '{"seq":' + good.length + ',"ti\n'],
    ['an unparseable last line and a torn rest', goodText + '{"seq":\n{"s'],
  ];
  it.each(torn)('drops %s and truncates the file', async (_name, text) => {
    const path = join(dir, 's.jsonl');
    await writeFile(path, text);
    const journal = await store.open('s');
    expect(journal.length).toBe(good.length);
    expect(await readFile(path, 'utf8')).toBe(goodText);
    const [next] = await journal.append([userMessage('after')]);
    expect(next!.seq).toBe(good.length);
    expect((await journal.read(0, good.length + 1)).slice(0, -1)).toEqual(good);
  });

  it('keeps a read-only fixture untouched while ignoring its torn tail', async () => {
    const fixtures = join(dir, 'fx');
    await mkdir(fixtures);
    const path = join(fixtures, 'f.jsonl');
    const text = journalText('f', good) + '{"se';
    await writeFile(path, text);
    const withFixtures = await createJournalStore({
      dataDir: join(dir, 'd'),
      fixtureDirs: [fixtures],
    });
    const journal = await withFixtures.open('f');
    expect(journal.length).toBe(good.length);
    expect(await readFile(path, 'utf8')).toBe(text);
    await withFixtures.close();
  });

  const lines = goodText.split('\n');
  const replaceLine = (n: number, text: string) =>
    lines.map((l, i) => (i === n - 1 ? text : l)).join('\n');
  const corrupt: [string, string, number, RegExp][] = [
    ['unparseable JSON', replaceLine(3, '{"seq":1,'), 3, /not valid JSON/],
    ['a wrong seq', replaceLine(3, lines[3]!), 3, /seq 2 where 1 was expected/],
    ['a bad time', replaceLine(2, '{"seq":0,"time":"soon","type":"x"}'), 2, /malformed "time"/],
    [
      'a missing type',
      replaceLine(2, '{"seq":0,"time":"2026-01-01T00:00:00Z"}'),
      2,
      /missing "type"/,
    ],
    ['a non-object line', replaceLine(4, '[1,2]'), 4, /not a JSON object/],
    [
      'a bad last line that parses',
      goodText + '{"seq":99,"time":"x","type":"y"}\n',
      lines.length,
      /seq 99/,
    ],
    [
      'a newer format',
      replaceLine(1, JSON.stringify(header('s', { formatVersion: 99 }))),
      1,
      /newer than this host's/,
    ],
    [
      'a foreign session id',
      replaceLine(1, JSON.stringify(header('other'))),
      1,
      /names session "other"/,
    ],
    ...[-5, 0, 1.5].map((formatVersion): [string, string, number, RegExp] => [
      `formatVersion ${formatVersion}`,
      replaceLine(1, JSON.stringify(header('s', { formatVersion }))),
      1,
      new RegExp(`formatVersion ${formatVersion} is not a journal format version`),
    ]),
    [
      'a string formatVersion',
      replaceLine(1, JSON.stringify({ ...header('s'), formatVersion: '1' })),
      1,
      /no formatVersion/,
    ],
    ['a header that is not an object', replaceLine(1, '[1]'), 1, /not a JSON object/],
    [
      'a header without a session id',
      replaceLine(1, JSON.stringify({ formatVersion: 1 })),
      1,
      /no sessionId/,
    ],
    [
      'an oversized middle line without a head',
      replaceLine(3, `{"big":"${'x'.repeat(maxEventLineBytes)}"}`),
      3,
      /byte line that does not start with/,
    ],
    [
      'an oversized line with a wrong seq',
      replaceLine(
        3,
        `{"seq":7,"time":"2026-01-01T00:00:00.000Z","type":"x","a":"${'x'.repeat(maxEventLineBytes)}"}`,
      ),
      3,
      /seq 7 where 1 was expected/,
    ],
    [
      'an oversized header',
      `{"formatVersion":1,"sessionId":"s","x":"${'x'.repeat(maxEventLineBytes)}"}\n`,
      1,
      /header line is \d+ bytes/,
    ],
    ['an empty file', '', 1, /empty/],
    ['an incomplete header', '{"formatVersion":1,', 1, /header line is incomplete/],
  ];
  it.each(corrupt)(
    'fails a journal with %s, naming the line',
    async (_name, text, line, reason) => {
      await writeFile(join(dir, 's.jsonl'), text);
      await writeJournal(dir, 'healthy', conversation(2));
      const error = await store.open('s').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ kind: 'corrupt', detail: { sessionId: 's', line } });
      expect((error as Error).message).toMatch(new RegExp(`^session s: line ${line}: `));
      expect((error as Error).message).toMatch(reason);
      // The file is left as it was, and the other session still pages.
      expect(await readFile(join(dir, 's.jsonl'), 'utf8')).toBe(text);
      const healthy = await store.open('healthy');
      expect((await healthy.page(undefined, 1)).events.length).toBeGreaterThan(0);
    },
  );

  it('retries a failed journal once its file changes', async () => {
    const path = join(dir, 's.jsonl');
    await writeFile(path, replaceLine(3, '{oops'));
    await expect(store.open('s')).rejects.toMatchObject({ kind: 'corrupt' });
    await writeFile(path, goodText);
    const before = await stat(path);
    expect(before.size).toBe(Buffer.byteLength(goodText));
    expect((await store.open('s')).length).toBe(good.length);
  });
});
