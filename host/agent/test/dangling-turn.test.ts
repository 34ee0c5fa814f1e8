import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  approvalRequested,
  approvalResolved,
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  questionRequested,
  textChunks,
  toolCall,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { ApprovalDecision, TurnEndReason } from '@dsh/gen/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDanglingTurn, hostStoppedReason, recoverDanglingTurn } from '../src/index.js';
import { eventType, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { tempDir, writeJournal } from '@dsh/journal-file/test-kit';

/** What a closing event says, in one short string per event. */
function describeClosing(payloads: Payload[]): string[] {
  return events(payloads).map((event) => {
    const p = event.payload;
    switch (p.case) {
      case 'toolResult':
        return `result ${p.value.callId} ${p.value.error?.code ?? ''} turn ${p.value.turn} step ${p.value.step}`;
      case 'codeDispatch':
        return `dispatch ${p.value.parentCallId}/${p.value.callId} ${p.value.error?.code ?? ''}`;
      case 'approvalResolved':
        return `approval ${p.value.approvalId} ${ApprovalDecision[p.value.decision]}`;
      case 'questionResolved':
        return `question ${p.value.questionId} ${p.value.cancelled ? 'cancelled' : 'answered'}`;
      case 'agentError':
        return `error ${p.value.code}`;
      case 'turnEnd':
        return `end ${p.value.turn} ${TurnEndReason[p.value.reason]}`;
      default:
        return eventType(event);
    }
  });
}

const ended: Payload[] = [
  userMessage('one'),
  turnStart(1),
  assistantMessage({ turn: 1 }, ['done']),
  turnEnd(1),
];

const cases: [string, Payload[], string[]][] = [
  ['a journal whose last turn ended', ended, []],
  ['an empty journal', [], []],
  [
    'a turn with an open call',
    [
      ...ended,
      userMessage('two'),
      turnStart(2),
      toolCall('call-a', 'bash', { command: 'ls' }, { turn: 2, step: 1 }),
    ],
    ['result call-a interrupted turn 2 step 1', 'error host_stopped', 'end 2 CANCELLED'],
  ],
  [
    'a stream cut mid-message (the partial is frozen by the end)',
    [
      userMessage('two'),
      turnStart(1),
      ...textChunks({ turn: 1 }, 0, ['Half an ', 'answer']).slice(0, -1),
    ],
    ['error host_stopped', 'end 1 CANCELLED'],
  ],
  [
    'a pending approval',
    [
      userMessage('x'),
      turnStart(1),
      toolCall('call-b', 'bash', {}),
      approvalRequested('ap-1', 'call-b', 'bash', 'runs a shell command'),
    ],
    [
      'approval ap-1 CANCELLED',
      'result call-b interrupted turn 1 step 0',
      'error host_stopped',
      'end 1 CANCELLED',
    ],
  ],
  [
    'a resolved approval and a pending question',
    [
      userMessage('x'),
      turnStart(1),
      toolCall('call-c', 'bash', {}),
      approvalRequested('ap-2', 'call-c', 'bash', ''),
      approvalResolved('ap-2', ApprovalDecision.ALLOW),
      toolResult('call-c', 'ok'),
      toolCall('call-q', 'ask_user', {}),
      questionRequested('q-1', 'call-q', [{ question: 'Which?' }]),
    ],
    [
      'question q-1 cancelled',
      'result call-q interrupted turn 1 step 0',
      'error host_stopped',
      'end 1 CANCELLED',
    ],
  ],
  [
    'open code-dispatch sub-calls, nested',
    [
      userMessage('x'),
      turnStart(1),
      toolCall('call-code', 'run_code', {}),
      codeDispatchStart('call-code', 'sub-1', 'read', {}),
      codeDispatch('call-code', 'sub-1', 'ok'),
      codeDispatchStart('call-code', 'sub-2', 'run_code', {}),
      codeDispatchStart('sub-2', 'sub-3', 'glob', {}),
    ],
    [
      'dispatch sub-2/sub-3 interrupted',
      'dispatch call-code/sub-2 interrupted',
      'result call-code interrupted turn 1 step 0',
      'error host_stopped',
      'end 1 CANCELLED',
    ],
  ],
  [
    'a turn an import opened (its source may still write it)',
    [userMessage('from Claude Code', 'claude-code'), turnStart(1), toolCall('call-i', 'bash', {})],
    [],
  ],
];

describe('closeDanglingTurn()', () => {
  it.each(cases)('%s', (_name, payloads, expected) => {
    expect(describeClosing(closeDanglingTurn(events(payloads)))).toEqual(expected);
  });

  it('says why the turn ended in its agent/error', () => {
    const closing = closeDanglingTurn(events([userMessage('x'), turnStart(1)]), {
      message: 'the disk was full',
      code: 'journal_write_failed',
    });
    expect(closing[0]).toMatchObject({
      case: 'agentError',
      value: { message: 'the disk was full', code: 'journal_write_failed' },
    });
    expect(hostStoppedReason.message).toMatch(/^The host stopped while this turn was running/);
  });
});

describe('recoverDanglingTurn()', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: JournalStore;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    store = await createJournalStore({ dataDir: dir, onFirstOpen: recoverDanglingTurn });
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  const open: Payload[] = [
    userMessage('go'),
    turnStart(1),
    toolCall('call-x', 'bash', {}),
    approvalRequested('ap-x', 'call-x', 'bash', ''),
  ];

  it('closes the open turn when a serving store first opens the journal, by appending', async () => {
    await writeJournal(dir, 'crashed', open);
    const before = await readFile(join(dir, 'crashed.jsonl'), 'utf8');
    const journal = await store.open('crashed');
    expect(journal.length).toBe(open.length + 4);
    const tail = await journal.read(open.length, journal.length);
    expect(tail.map((e) => e.payload.case)).toEqual([
      'approvalResolved',
      'toolResult',
      'agentError',
      'turnEnd',
    ]);
    expect((await readFile(join(dir, 'crashed.jsonl'), 'utf8')).startsWith(before)).toBe(true);
    // Once closed, nothing more is appended on a later open.
    await store.close();
    store = await createJournalStore({ dataDir: dir, onFirstOpen: recoverDanglingTurn });
    expect((await store.open('crashed')).length).toBe(open.length + 4);
  });

  it('never touches a read-only fixture', async () => {
    const fixtures = join(dir, 'fx');
    await mkdir(fixtures);
    await writeJournal(fixtures, 'fixture', open);
    const text = await readFile(join(fixtures, 'fixture.jsonl'), 'utf8');
    const withFixtures = await createJournalStore({
      dataDir: join(dir, 'data'),
      fixtureDirs: [fixtures],
      onFirstOpen: recoverDanglingTurn,
    });
    expect((await withFixtures.open('fixture')).length).toBe(open.length);
    expect(await readFile(join(fixtures, 'fixture.jsonl'), 'utf8')).toBe(text);
    await withFixtures.close();
  });

  it('closes a turn longer than one read-back chunk', async () => {
    const long: Payload[] = [];
    for (let t = 1; t <= 600; t += 1) {
      long.push(
        userMessage(`q${t}`),
        turnStart(t),
        assistantMessage({ turn: t }, ['a']),
        turnEnd(t),
      );
    }
    long.push(userMessage('last'), turnStart(601));
    const delta = textChunks({ turn: 601 }, 0, ['x'])[1]!;
    for (let i = 0; i < 1500; i += 1) long.push(delta);
    await writeJournal(dir, 'long', long);
    const journal = await store.open('long');
    const tail = await journal.read(long.length, journal.length);
    expect(tail.map((e) => e.payload.case)).toEqual(['agentError', 'turnEnd']);
  });
});
