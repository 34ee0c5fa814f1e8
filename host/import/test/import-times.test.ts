import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { SessionEvent } from '@dsh/gen/events';
import { afterEach, describe, expect, it } from 'vitest';
import { importClaudeCode, importedSessionId } from '../src/index.js';
import { eventType } from '@dsh/journal';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import {
  allEvents,
  fixtureMain,
  fixtureSessionId,
  importSandbox,
  transcriptLines,
  type ImportSandbox,
} from './import-test-kit.js';

const mainId = importedSessionId(fixtureSessionId);
const sideId = `${mainId}-side-1`;
const agentId = `${mainId}-agent-a1b2c3`;
let sandbox: ImportSandbox | undefined;
let store: FileJournalStore | undefined;

afterEach(async () => {
  await store?.close();
  await sandbox?.close();
  store = undefined;
  sandbox = undefined;
});

async function setup(
  withLines?: number,
): Promise<{ sandbox: ImportSandbox; store: FileJournalStore }> {
  sandbox = await importSandbox(withLines);
  store = await createJournalStore({ dataDir: sandbox.dataDir });
  return { sandbox, store };
}

const iso = (event: SessionEvent): string => timestampDate(event.time!).toISOString();

/** What the transcript says about times: per tool_use id its message's last line, per tool_result id its line. */
interface TranscriptTimes {
  readonly all: Set<string>;
  readonly call: Map<string, string>;
  readonly result: Map<string, string>;
  /** The last timestamp of all lines, of the main (not sidechain) lines, of the sidechain lines. */
  readonly last: string;
  readonly lastMain: string;
  readonly lastSide: string;
}

async function transcriptTimes(path: string): Promise<TranscriptTimes> {
  type Block = { type?: string; id?: string; tool_use_id?: string };
  type Line = {
    timestamp?: string;
    isSidechain?: boolean;
    message?: { id?: string; content?: unknown };
  };
  const lines: Line[] = [];
  for (const text of (await readFile(path, 'utf8')).split('\n')) {
    try {
      lines.push(JSON.parse(text) as Line);
    } catch {
      // The fixture has one malformed line on purpose.
    }
  }
  const messageEnd = new Map<string, string>();
  const callMessage = new Map<string, string>();
  const times: TranscriptTimes = {
    all: new Set(),
    call: new Map(),
    result: new Map(),
    last: '',
    lastMain: '',
    lastSide: '',
  };
  let last = '';
  let lastMain = '';
  let lastSide = '';
  for (const line of lines) {
    const time = line.timestamp;
    if (time === undefined) continue;
    times.all.add(time);
    last = time;
    if (line.isSidechain === true) lastSide = time;
    else lastMain = time;
    const blocks = Array.isArray(line.message?.content) ? (line.message.content as Block[]) : [];
    const messageId = line.message?.id;
    if (messageId !== undefined) messageEnd.set(messageId, time);
    for (const block of blocks) {
      if (block.type === 'tool_use' && messageId !== undefined)
        callMessage.set(block.id!, messageId);
      if (block.type === 'tool_result') times.result.set(block.tool_use_id!, time);
    }
  }
  for (const [callId, messageId] of callMessage) times.call.set(callId, messageEnd.get(messageId)!);
  return { ...times, last, lastMain, lastSide };
}

describe('importClaudeCode()', () => {
  it('gives every event the time of its transcript line and each session its last one', async () => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    const times = await transcriptTimes(sandbox.mainPath);
    const main = await allEvents(await store.open(mainId));
    const side = await allEvents(await store.open(sideId));
    let checked = 0;
    for (const event of [...main, ...side]) {
      expect(times.all).toContain(iso(event));
      const { payload } = event;
      if (payload.case === 'toolCall') {
        expect([payload.value.callId, iso(event)]).toEqual([
          payload.value.callId,
          times.call.get(payload.value.callId),
        ]);
        checked += 1;
      }
      if (payload.case === 'toolResult' && payload.value.error?.code !== 'interrupted') {
        expect([payload.value.callId, iso(event)]).toEqual([
          payload.value.callId,
          times.result.get(payload.value.callId),
        ]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // The leading `summary` line names the session: it adds no event.
    expect([eventType(main[0]!), iso(main[0]!)]).toEqual([
      'user/message',
      '2025-11-20T10:00:01.000Z',
    ]);
    expect(iso(main.at(-1)!)).toBe(times.lastMain);
    expect(iso(side.at(-1)!)).toBe(times.lastSide);

    const agentPath = join(
      sandbox.projects,
      fixtureMain.replace(/\.jsonl$/, ''),
      'subagents',
      'agent-a1b2c3.jsonl',
    );
    const agentTimes = await transcriptTimes(agentPath);
    const agent = await allEvents(await store.open(agentId));
    for (const event of agent) expect(agentTimes.all).toContain(iso(event));

    const updated = Object.fromEntries(
      (await store.list()).map((s) => [s.header.sessionId, s.updatedAt.toISOString()]),
    );
    expect(updated).toEqual({
      [mainId]: times.lastMain,
      [sideId]: times.lastSide,
      [agentId]: agentTimes.last,
    });
    const created = Object.fromEntries(
      (await store.list()).map((s) => [s.header.sessionId, s.header.createdAt]),
    );
    expect(created[mainId]).toBe(iso(main[0]!));
    expect(created[sideId]).toBe(iso(side[0]!));
    expect(created[agentId]).toBe(iso(agent[0]!));
    await store.close();
    const reopened = await createJournalStore({ dataDir: sandbox.dataDir });
    try {
      const summary = (await reopened.list()).find((s) => s.header.sessionId === mainId);
      expect(summary?.updatedAt.toISOString()).toBe(times.lastMain);
    } finally {
      await reopened.close();
    }
  });

  it.each([
    ['after a tool result', 10, true],
    ['inside an assistant message (split in two by the pass)', 4, false],
  ])('takes times from the transcript when continuing a pass cut %s', async (_, cut, exact) => {
    const { sandbox, store } = await setup(cut);
    await importClaudeCode(store, sandbox.projects);
    await appendFile(sandbox.mainPath, (await transcriptLines(undefined, cut)).join(''));
    await importClaudeCode(store, sandbox.projects);
    const continued = (await allEvents(await store.open(mainId))).map(iso);
    const times = await transcriptTimes(sandbox.mainPath);
    for (const time of continued) expect(times.all).toContain(time);
    expect(continued.at(-1)).toBe(times.lastMain);
    const whole = await createJournalStore({ dataDir: join(sandbox.dataDir, '..', 'whole') });
    try {
      await importClaudeCode(whole, sandbox.projects);
      const once = (await allEvents(await whole.open(mainId))).map(iso);
      if (exact) expect(continued).toEqual(once);
      else expect(continued).not.toEqual(once);
    } finally {
      await whole.close();
    }
  });
});
