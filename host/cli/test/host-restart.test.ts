import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { createConversation } from '@dsh/card-models';
import { ApprovalDecision, TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountTmpfs, tmpfsMissing } from '@dsh/journal-file/test-kit';
import { startDsh, runDsh, type DshProcess } from './dsh-process.js';
import { followSession } from './session-follower.js';

let root: string;
let project: string;
let home: string;
let dataDir: string;
const running: DshProcess[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'dsh-restart-'));
  project = join(root, 'project');
  home = join(root, 'home');
  dataDir = join(root, 'data');
  await mkdir(project);
  await mkdir(home);
  await writeFile(join(project, 'README.md'), '# restart test\n');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
  await rm(root, { recursive: true, force: true });
});

async function serve(): Promise<DshProcess> {
  const dsh = await startDsh({ cwd: project, home, dataDir });
  running.push(dsh);
  return dsh;
}

const clientOf = (dsh: DshProcess) =>
  createClient(SessionService, createConnectTransport({ baseUrl: dsh.url, httpVersion: '1.1' }));

const lockPath = () => join(dataDir, '.dsh.lock');

describe('one writer per data dir (dsh serve subprocesses)', () => {
  it('refuses a second dsh serve and a dsh import, naming the holder, until the first stops', async () => {
    const first = await serve();
    const held = new RegExp(
      `^dsh: the data dir ${dataDir} is in use by another dsh, pid ${first.pid} \\(dsh serve, since \\d{4}-\\d\\d-\\d\\dT[^)]+\\), which holds ${lockPath()}: `,
    );
    const second = await runDsh(['serve', '--port', '0', '--data-dir', dataDir], {
      cwd: project,
      home,
    });
    expect(second.code).toBe(1);
    expect(second.output).toMatch(held);
    expect(second.output).toMatch(
      /stop that host, or serve another dir with --data-dir DIR\. If that process is not running, remove .*\.dsh\.lock\n$/,
    );
    const imported = await runDsh(['import', 'claude-code', project, '--data-dir', dataDir], {
      cwd: project,
      home,
    });
    expect(imported.code).toBe(1);
    expect(imported.output).toMatch(held);
    expect(imported.output).toMatch(
      /import through that host instead \(restart it with --watch-claude\)/,
    );
    // The first host is unharmed and serves its seeded demo sessions.
    const listed = await clientOf(first).listSessions({});
    expect(listed.sessions.map((s) => s.id)).toContain('approvals');
    expect(await first.stop()).toBe(0);
    running.splice(running.indexOf(first), 1);
    expect(existsSync(lockPath())).toBe(false);
    const third = await serve();
    expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toMatchObject({ pid: third.pid });
  });

  it('seeds the approvals demo with its open turn closed, so it offers nothing to press', async () => {
    const dsh = await serve();
    const page = await clientOf(dsh).page({ sessionId: 'approvals' });
    const events = page.events.flatMap((e) => (e.event ? [e.event] : []));
    const snapshot = createConversation().apply({ kind: 'replace', events });
    expect(snapshot.pending).toEqual([]);
    expect(snapshot.runningCalls).toEqual([]);
    expect(events.slice(-4).map((e) => e.payload.case)).toEqual([
      'approvalResolved',
      'toolResult',
      'agentError',
      'turnEnd',
    ]);
    const last = events.at(-1)!;
    expect(last.time?.seconds).toBe(BigInt(Date.parse('2026-01-01T00:01:04.000Z') / 1000));
  });
});

const noTmpfs = tmpfsMissing();
describe.skipIf(noTmpfs !== undefined)('a read-only data dir (dsh serve subprocess)', () => {
  it('is served read-only: sessions list and page, writes fail naming the data dir', async () => {
    const disk = await mountTmpfs(8 * 1024 * 1024);
    try {
      dataDir = join(disk.dir, 'data');
      const first = await serve();
      await first.stop();
      running.splice(running.indexOf(first), 1);
      disk.remount('ro');
      const dsh = await serve();
      expect(dsh.output()).toMatch(
        /dsh: cannot take the data dir lock .*\.dsh\.lock: the data dir .* is on a read-only file system \(EROFS\): .*; serving it read-only/,
      );
      const client = clientOf(dsh);
      const listed = await client.listSessions({});
      expect(listed.sessions.length).toBe(5);
      expect(listed.sessions.every((s) => s.readOnly && s.error === '')).toBe(true);
      expect((await client.page({ sessionId: 'showcase' })).events.length).toBeGreaterThan(0);
      const error = await client.createSession({ cwd: project }).catch((e: unknown) => e);
      expect(String(error)).toMatch(/\[failed_precondition\] .*read-only file system \(EROFS\)/);
      await dsh.stop();
      running.splice(running.indexOf(dsh), 1);
    } finally {
      await disk.unmount();
    }
  });
});

describe('a host killed mid-turn (kill -9), then restarted', () => {
  it('takes over the stale lock and closes the dead turn before a client sees it', async () => {
    const before = await serve();
    const client = clientOf(before);
    const { session } = await client.createSession({ cwd: project });
    const sessionId = session!.id;
    const follower = followSession(client, sessionId, () => {});
    await client.prompt({
      sessionId,
      mode: PromptMode.QUEUE,
      content: [{ block: { case: 'text', value: { text: 'Show me around' } } }],
    });
    await follower.waitFor(
      'an approval request',
      (e) => e.payload.case === 'approvalRequested',
      30_000,
    );
    await before.kill();
    running.splice(running.indexOf(before), 1);
    await follower.stop();
    expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toMatchObject({ pid: before.pid });

    const after = await serve();
    const again = clientOf(after);
    const listed = (await again.listSessions({})).sessions.find((s) => s.id === sessionId);
    expect(listed?.running).toBe(false);
    const page = await again.page({ sessionId, maxMessages: 1000 });
    const events: SessionEvent[] = page.events.flatMap((e) => (e.event ? [e.event] : []));
    const closing = events.slice(-4).map((e) => e.payload);
    expect(closing).toMatchObject([
      { case: 'approvalResolved', value: { decision: ApprovalDecision.CANCELLED } },
      { case: 'toolResult', value: { isError: true, error: { code: 'interrupted' } } },
      { case: 'agentError', value: { code: 'host_stopped' } },
      { case: 'turnEnd', value: { turn: 1, reason: TurnEndReason.CANCELLED } },
    ]);
    const snapshot = createConversation().apply({ kind: 'replace', events });
    expect(snapshot.pending).toEqual([]);
    expect(snapshot.runningCalls).toEqual([]);
    expect(snapshot.partial).toBeUndefined();
    // The session takes a new turn.
    await again.prompt({
      sessionId,
      mode: PromptMode.QUEUE,
      content: [{ block: { case: 'text', value: { text: 'again' } } }],
    });
    const resumed = followSession(again, sessionId, () => {});
    await resumed.waitFor(
      'turn 2',
      (e) => e.payload.case === 'turnStart' && e.payload.value.turn === 2,
      30_000,
    );
    await again.cancel({ sessionId });
    await resumed.stop();
  });
});
