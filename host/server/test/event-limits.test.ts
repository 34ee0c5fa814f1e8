import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assistantMessage, events, toolResult, userMessage } from '@dsh/fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeEventLine,
  maxEventLineBytes,
  oversizedLineType,
  type JournalStore,
} from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { iterate, startTestHost, take, type TestHost } from './test-host.js';
import { conversation, journalText, tempDir } from '@dsh/journal-file/test-kit';

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

/** A journal line over the limit, as an older host could write it: head first, then text. */
function oversizedLine(seq: number, type: string, bytes: number): string {
  const head = `{"seq":${seq},"time":"2026-01-01T00:00:0${seq % 10}.000Z","type":"${type}","content":[{"text":{"text":"`;
  const tail = '"}}]}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

/**
 * A journal of three turns with an oversized `assistant/message` in the middle: events
 * 0..k-1, then the oversized line at seq k, then the rest renumbered after it.
 */
async function journalWithOversized(id: string, at: 'middle' | 'last') {
  const before = events(conversation(2));
  const big = before.length;
  const after = at === 'last' ? [] : events([userMessage('after the big one')], big + 1);
  const text =
    journalText(id, before) +
    oversizedLine(big, 'assistant/message', maxEventLineBytes + 1000) +
    '\n' +
    after.map((e) => encodeEventLine(e) + '\n').join('');
  await writeFile(join(dir, `${id}.jsonl`), text);
  return { before, big, after, text };
}

describe('append() line limit', () => {
  it('refuses an event over the limit with too_large, writes nothing and keeps the seq', async () => {
    const journal = await store.create({ cwd: '/work', sessionId: 'limit' });
    await journal.append([userMessage('first')]);
    const path = join(dir, 'limit.jsonl');
    const size = (await stat(path)).size;
    const huge = toolResult('call-1', 'y'.repeat(maxEventLineBytes));
    const error = await journal.append([userMessage('ok'), huge]).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'too_large' });
    expect((error as Error).message).toMatch(
      /^session limit: event 2 \(tool\/result\) would be a \d+-byte journal line, over the 16777216-byte limit: /,
    );
    expect((await stat(path)).size).toBe(size);
    const [next] = await journal.append([userMessage('next')]);
    expect(next!.seq).toBe(1);
  });

  it('takes an event just under the limit', async () => {
    const journal = await store.create({ cwd: '/work', sessionId: 'under' });
    const text = 'z'.repeat(maxEventLineBytes - 1000);
    const [event] = await journal.append([assistantMessage({ turn: 1 }, [text])]);
    const [read] = await journal.read(0, 1);
    expect(read).toEqual(event);
  });
});

describe('an oversized line from an older host', () => {
  it('pages around it with a dsh/oversized-line stand-in, and the file stays unchanged', async () => {
    const { before, big, after, text } = await journalWithOversized('old', 'middle');
    const journal = await store.open('old');
    expect(journal.length).toBe(big + 2);
    const tail = await journal.page(undefined, 1000);
    expect(tail.events.slice(0, big)).toEqual(before);
    const standIn = tail.events[big]!;
    expect(standIn.seq).toBe(big);
    expect(standIn.payload.case).toBe('extension');
    if (standIn.payload.case !== 'extension') return;
    expect(standIn.payload.value.type).toBe(oversizedLineType);
    expect(JSON.parse(standIn.payload.value.dataJson)).toEqual({
      originalType: 'assistant/message',
      bytes: maxEventLineBytes + 1000,
      limit: maxEventLineBytes,
      message: expect.stringMatching(/over the 16777216-byte limit, so it is not served/),
    });
    expect(tail.events.slice(big + 1)).toEqual(after);
    // The stand-in is not a message boundary: the last page starts at the message after it.
    expect((await journal.page(undefined, 1)).events.map((e) => e.seq)).toEqual([big + 1]);
    const appended = await journal.append([userMessage('new')]);
    expect(appended[0]!.seq).toBe(big + 2);
    expect((await readFile(join(dir, 'old.jsonl'), 'utf8')).startsWith(text)).toBe(true);
  });

  it('lists a session whose last line is oversized with its count', async () => {
    const { big } = await journalWithOversized('last', 'last');
    const [summary] = await store.list();
    expect(summary).toMatchObject({ length: big + 1, error: undefined });
  });

  it('drops a torn oversized tail and truncates it', async () => {
    const good = events(conversation(2));
    const text = journalText('torn', good);
    await writeFile(join(dir, 'torn.jsonl'), text);
    await appendFile(
      join(dir, 'torn.jsonl'),
      oversizedLine(good.length, 'tool/result', maxEventLineBytes * 2),
    );
    const journal = await store.open('torn');
    expect(journal.length).toBe(good.length);
    expect(await readFile(join(dir, 'torn.jsonl'), 'utf8')).toBe(text);
  });
});

describe('Page and Follow over an oversized line (RPC)', () => {
  let host: TestHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('serve the stand-in in its place and go on past it', async () => {
    host = await startTestHost();
    const data = join(host.dir, 'sessions');
    const before = events(conversation(1));
    const big = before.length;
    const after = events([userMessage('after')], big + 1);
    await writeFile(
      join(data, 'rpc.jsonl'),
      journalText('rpc', before) +
        oversizedLine(big, 'tool/result', maxEventLineBytes + 1) +
        '\n' +
        encodeEventLine(after[0]!) +
        '\n',
    );
    const page = await host.client.page({ sessionId: 'rpc' });
    expect(page.events.map((e) => e.event!.seq)).toEqual([
      ...before.map((e) => e.seq),
      big,
      big + 1,
    ]);
    expect(page.events[big]!.event!.payload).toMatchObject({
      case: 'extension',
      value: { type: oversizedLineType },
    });
    const stream = iterate(host.client.follow({ sessionId: 'rpc' }));
    const frames = await take(stream, big + 3);
    const seqs = frames.flatMap((f) =>
      f.frame.case === 'event' ? [f.frame.value.event!.seq] : [],
    );
    expect(seqs).toEqual([...before.map((e) => e.seq), big, big + 1]);
    await stream.return?.();
  });
});
