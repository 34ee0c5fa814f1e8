import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ApprovalDecision, TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '@dsh/journal';
import { startDsh, type DshProcess } from './dsh-process.js';
import { followSession, type SessionFollower } from './session-follower.js';

let root: string;
let project: string;
let dsh: DshProcess | undefined;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dsh-e2e-'));
  project = join(root, 'project');
  await mkdir(join(project, 'src'), { recursive: true });
  await mkdir(join(root, 'home'));
  await writeFile(join(project, 'README.md'), '# e2e project\n\nA project the demo tours.\n');
  await writeFile(join(project, 'package.json'), '{ "name": "e2e-project" }\n');
  await writeFile(join(project, 'src/index.ts'), 'export const answer = 42;\n');
});

afterAll(async () => {
  await dsh?.stop();
  await rm(root, { recursive: true, force: true });
});

const text = (value: string) => [{ block: { case: 'text' as const, value: { text: value } } }];
const turnStart = (turn: number) => (e: SessionEvent) =>
  e.payload.case === 'turnStart' && e.payload.value.turn === turn;
const turnEnd = (turn: number) => (e: SessionEvent) =>
  e.payload.case === 'turnEnd' && e.payload.value.turn === turn;

/** Pages the whole journal, oldest page last requested. */
async function pageAll(client: Client<typeof SessionService>, sessionId: string) {
  let page = await client.page({ sessionId, maxMessages: 1000 });
  const all = [...page.events];
  while (page.hasMore) {
    page = await client.page({ sessionId, maxMessages: 1000, beforeSeq: all[0]?.event?.seq });
    all.unshift(...page.events);
  }
  return all.flatMap((entry) => (entry.event ? [entry.event] : []));
}

describe('dsh serve with the demo model (subprocess, Connect client)', () => {
  it('records every SPEC 5 event type, fails on "fail", cancels, and exits 0 on SIGTERM', async () => {
    dsh = await startDsh({ cwd: project, home: join(root, 'home'), dataDir: join(root, 'data') });
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: dsh.url, httpVersion: '1.1' }),
    );
    const { session } = await client.createSession({ cwd: project });
    const sessionId = session?.id ?? '';
    expect(session?.cwd).toBe(project);

    // Answers approvals and questions as they arrive, except in the turn the test cancels.
    let turn = 0;
    let holdTurn = -1;
    let steered: Promise<unknown> | undefined;
    const answered: Promise<unknown>[] = [];
    const follower: SessionFollower = followSession(client, sessionId, (event) => {
      const p = event.payload;
      if (p.case === 'turnStart') turn = p.value.turn;
      if (turn === holdTurn) return;
      if (p.case === 'approvalRequested') {
        steered ??= client.prompt({
          sessionId,
          content: text('please also look at the README'),
          mode: PromptMode.STEER,
        });
        const approvalId = p.value.approvalId;
        answered.push(
          steered.then(() =>
            client.respond({
              sessionId,
              response: {
                case: 'approval',
                value: { approvalId, decision: ApprovalDecision.ALLOW },
              },
            }),
          ),
        );
      } else if (p.case === 'questionRequested') {
        const answers = p.value.questions.map((q) => ({ values: [q.options[0]?.label ?? 'yes'] }));
        answered.push(
          client.respond({
            sessionId,
            response: { case: 'question', value: { questionId: p.value.questionId, answers } },
          }),
        );
      }
    });

    // Turn 1: the whole tour.
    const first = await client.prompt({ sessionId, content: text('demo'), mode: PromptMode.QUEUE });
    expect(first.started).toBe(true);
    const end1 = await follower.waitFor('turn/end 1', turnEnd(1), 45_000);
    expect(end1.payload.value).toMatchObject({ reason: TurnEndReason.COMPLETED });

    // Turn 2: waits on an approval nobody answers; Cancel ends it.
    holdTurn = 2;
    await client.prompt({ sessionId, content: text('tour again'), mode: PromptMode.QUEUE });
    const start2 = await follower.waitFor('turn/start 2', turnStart(2));
    const held = await follower.waitFor(
      'approval/requested in turn 2',
      (e) => e.payload.case === 'approvalRequested' && e.seq > start2.seq,
    );
    const cancelled = await client.cancel({ sessionId });
    expect(cancelled.cancelled).toBe(true);
    const end2 = await follower.waitFor('turn/end 2', turnEnd(2));
    expect(end2.payload.value).toMatchObject({ reason: TurnEndReason.CANCELLED });

    // Turn 3: the session takes the next prompt and runs it to the end.
    holdTurn = -1;
    const next = await client.prompt({ sessionId, content: text('go on'), mode: PromptMode.QUEUE });
    expect(next.started).toBe(true);
    const end3 = await follower.waitFor('turn/end 3', turnEnd(3), 45_000);
    expect(end3.payload.value).toMatchObject({ reason: TurnEndReason.COMPLETED });

    // Turn 4: the demo model simulates a provider failure.
    await client.prompt({ sessionId, content: text('now fail please'), mode: PromptMode.QUEUE });
    const end4 = await follower.waitFor('turn/end 4', turnEnd(4));
    expect(end4.payload.value).toMatchObject({ reason: TurnEndReason.ERROR });

    // Turn 5: the session stays usable after a provider failure.
    await client.prompt({ sessionId, content: text('and again'), mode: PromptMode.QUEUE });
    const end5 = await follower.waitFor('turn/end 5', turnEnd(5), 45_000);
    expect(end5.payload.value).toMatchObject({ reason: TurnEndReason.COMPLETED });
    await Promise.all(answered);
    expect(await follower.stop()).toBeUndefined();

    const events = await pageAll(client, sessionId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i));
    expect(events).toEqual(follower.events.slice(0, events.length));
    const types = new Set(events.map((e) => e.payload.case));
    const known = Object.keys(eventTypes) as (keyof typeof eventTypes)[];
    // UpdateSession writes these, never a turn.
    const sessionFacts = new Set(['sessionRenamed', 'sessionArchived']);
    const unseen = known.filter((t) => !types.has(t) && !sessionFacts.has(t));
    expect(unseen.map((t) => eventTypes[t].type)).toEqual([]);
    expect(types.has('extension')).toBe(false);

    const payloads = events.map((e) => e.payload);
    expect(
      payloads.flatMap((p) => (p.case === 'turnEnd' ? [[p.value.turn, p.value.reason]] : [])),
    ).toEqual([
      [1, TurnEndReason.COMPLETED],
      [2, TurnEndReason.CANCELLED],
      [3, TurnEndReason.COMPLETED],
      [4, TurnEndReason.ERROR],
      [5, TurnEndReason.COMPLETED],
    ]);
    expect(payloads.find((p) => p.case === 'agentError')?.value).toMatchObject({
      code: 'provider_unavailable',
    });
    expect(payloads.find((p) => p.case === 'steeringMessage')?.value).toMatchObject({
      turn: 1,
      content: text('please also look at the README'),
    });
    // The held approval was withdrawn and its call closed as interrupted.
    const heldValue = held.payload.case === 'approvalRequested' ? held.payload.value : undefined;
    expect(
      payloads.find(
        (p) => p.case === 'approvalResolved' && p.value.approvalId === heldValue?.approvalId,
      )?.value,
    ).toMatchObject({ decision: ApprovalDecision.CANCELLED });
    expect(
      payloads.find((p) => p.case === 'toolResult' && p.value.callId === heldValue?.callId)?.value,
    ).toMatchObject({ isError: true, error: { code: 'interrupted' } });
    // The tour's summary quotes the answer to its question; its files are real.
    const summaries = payloads.flatMap((p) =>
      p.case === 'assistantMessage' && p.value.finishReason === 'stop' ? [p.value.content] : [],
    );
    expect(JSON.stringify(summaries[0])).toContain('You answered my question with');
    expect(await readFile(join(project, '.dsh-demo/notes.md'), 'utf8')).toContain('an edited note');

    expect(await dsh.stop()).toBe(0);
    expect(dsh.output()).toContain('SIGTERM: shutting down');
  }, 60_000);
});
