import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { PromptMode } from '@dsh/gen/service';
import { answerOf, describeAnswer, isClear, type Answer } from '../lib/answer.js';
import { sessionClient, textContent, type SessionClient } from '../lib/clients.js';
import { directive } from '../lib/fake-model.js';
import { launchHost } from '../lib/host-process.js';
import { readJournalFile, seqProblems } from '../lib/journal-file.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';
import type { SoakContext } from '../lib/soak-context.js';
import { canMount, mountTmpfs, remount, unmount } from '../lib/tmpfs.js';
import { idleLastSeq } from '../lib/workload.js';

const fixtureJournal = fileURLToPath(
  new URL('../../fixtures/journals/approvals.jsonl', import.meta.url),
);
const spaceWords = /space|full|ENOSPC|disk/i;
const readOnlyWords = /read-only|read only|EROFS|EACCES|permission|writable/i;

/**
 * A data dir on a small tmpfs that the soak fills up while the host runs: requests must
 * fail with a clear error, reads must go on, nothing half-written may be listed, and once
 * space is freed the host must take input again (and after a restart).
 */
export const diskFull: Probe = {
  name: 'disk-full',
  short: true,
  async run(ctx) {
    if (!canMount)
      return [skipped('disk full (tmpfs filled while serving)', 'needs root to mount a tmpfs')];
    const mnt = join(ctx.dir('disk-full'), 'mnt');
    mountTmpfs(mnt, 4_096);
    try {
      return [await fillWhileServing(ctx, mnt)];
    } finally {
      await ctx.stopHosts();
      unmount(mnt);
    }
  },
};

async function fillWhileServing(ctx: SoakContext, mnt: string): Promise<RowResult> {
  const dataDir = join(mnt, 'sessions');
  mkdirSync(dataDir);
  copyFileSync(fixtureJournal, join(dataDir, 'approvals.jsonl'));
  const cwd = ctx.dir('cwd');
  let host = await ctx.host({ dataDir, cwd });
  let client = sessionClient(host.url);
  const sessionId = (await client.createSession({ cwd })).session?.id ?? '';
  await client.prompt({ sessionId, content: textContent('hello'), mode: PromptMode.QUEUE });
  await idleLastSeq(client, sessionId);
  const filler = fill(join(mnt, 'filler'));
  const answers: [string, Answer][] = [];
  const ask = async (
    what: string,
    request: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<void> => {
    answers.push([what, await answerOf(request)]);
  };
  for (let i = 0; i < 3; i++)
    await ask('CreateSession', (signal) => client.createSession({ cwd }, { signal }));
  await ask('Prompt', (signal) =>
    client.prompt(
      {
        sessionId,
        content: textContent(directive({ stream: { chunks: 200, delayMs: 1, size: 200 } })),
        mode: PromptMode.QUEUE,
      },
      { signal },
    ),
  );
  await sleep(1_500);
  const reads: [string, Answer][] = [];
  reads.push([
    'Page',
    await answerOf((signal) => client.page({ sessionId: 'approvals' }, { signal })),
  ]);
  reads.push(['Follow', await answerOf(() => readSession(client, sessionId, 5_000))]);
  reads.push(['ListSessions', await answerOf((signal) => client.listSessions({}, { signal }))]);
  const survived = host.alive();
  const running = survived
    ? await answerOf(() => idleLastSeq(client, sessionId))
    : { code: 'dead', message: '' };
  rmSync(filler);
  const problems: string[] = [];
  const unclear = answers.filter(([, a]) => !isClear(a, spaceWords));
  const failedReads = reads.filter(([, a]) => a.code !== 'ok');
  if (!survived)
    problems.push(`the host died: ${host.output().trim().split('\n').at(-1)?.slice(0, 120)}`);
  if (running.code !== 'ok') problems.push(`the turn never ended (${running.code})`);
  problems.push(...filesProblems(dataDir));
  if (survived) {
    problems.push(...(await listedProblems(client, 'while serving')));
    const again = await answerOf(async () => {
      await client.prompt({
        sessionId,
        content: textContent('space is back'),
        mode: PromptMode.QUEUE,
      });
      await idleLastSeq(client, sessionId);
    });
    if (again.code !== 'ok') problems.push(describeAnswer('a prompt once space was freed', again));
    await host.stop();
  }
  host = await ctx.host({ dataDir, cwd });
  client = sessionClient(host.url);
  problems.push(...(await listedProblems(client, 'after a restart')));
  await host.stop();
  const all = [...answers, ...reads];
  return {
    probe: 'disk full (tmpfs filled while serving)',
    tried: all.length + 4,
    failed: unclear.length + failedReads.length + problems.length,
    lost: null,
    required: true,
    note: [
      ...all.map(([what, a]) => describeAnswer(what, a)),
      ...(problems.length > 0
        ? problems
        : [
            'host alive, files whole, nothing half-written listed, input taken once space was back',
          ]),
    ].join('; '),
  };
}

/** Writes zeros to `path` until the file system is full; returns the path. */
function fill(path: string): string {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Journal files that are torn, hold bad lines or break the seq order. */
function filesProblems(dataDir: string): string[] {
  const problems: string[] = [];
  for (const name of readdirSync(dataDir).filter((n) => n.endsWith('.jsonl'))) {
    const file = readJournalFile(join(dataDir, name));
    const { duplicates, gaps } = seqProblems(file.seqs);
    if (!file.headerOk || file.tornTail || file.badLines > 0 || duplicates > 0 || gaps > 0) {
      problems.push(
        `${name}: header ${file.headerOk ? 'ok' : 'bad'}, torn tail ${file.tornTail}, ${file.badLines} bad lines, ${duplicates} duplicate and ${gaps} missing seqs`,
      );
    }
  }
  return problems;
}

async function listedProblems(client: SessionClient, when: string): Promise<string[]> {
  const listed = await answerOf((signal) => client.listSessions({}, { signal }));
  if (listed.code !== 'ok') return [describeAnswer(`ListSessions ${when}`, listed)];
  const { sessions } = await client.listSessions({});
  return sessions
    .filter((s) => s.error !== '')
    .map((s) => `listed ${when} with an error: ${s.id}: ${s.error.slice(0, 100)}`);
}

/**
 * A data dir the host cannot write (a read-only mount as root, else chmod): the host
 * must serve what is there, refuse input with a clear error, and never die; refusing
 * to start is acceptable when its message names the problem.
 */
export const readOnlyDir: Probe = {
  name: 'read-only',
  short: true,
  async run(ctx) {
    const base = ctx.dir('read-only');
    const dataDir = join(base, 'sessions');
    const cwd = ctx.dir('cwd');
    const mounted = canMount;
    if (mounted) mountTmpfs(dataDir, 8_192);
    else mkdirSync(dataDir, { recursive: true });
    try {
      copyFileSync(fixtureJournal, join(dataDir, 'approvals.jsonl'));
      const writer = await ctx.host({ dataDir, cwd });
      const w = sessionClient(writer.url);
      const sessionId = (await w.createSession({ cwd })).session?.id ?? '';
      await w.prompt({ sessionId, content: textContent('hello'), mode: PromptMode.QUEUE });
      await idleLastSeq(w, sessionId);
      await writer.stop();
      if (mounted) remount(dataDir, 'ro');
      else {
        for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o444);
        chmodSync(dataDir, 0o555);
      }
      return [
        await serveReadOnly(
          ctx,
          dataDir,
          cwd,
          sessionId,
          mounted ? 'read-only mount' : 'chmod 555',
        ),
      ];
    } finally {
      await ctx.stopHosts();
      if (mounted) unmount(dataDir);
      else chmodSync(dataDir, 0o755);
    }
  },
};

async function serveReadOnly(
  ctx: SoakContext,
  dataDir: string,
  cwd: string,
  sessionId: string,
  how: string,
): Promise<RowResult> {
  const probe = `read-only data dir (${how})`;
  const host = launchHost({ dataDir, home: ctx.dir('home'), cwd, args: ctx.hostArgs() });
  const url = await host.serving.catch(() => undefined);
  if (url === undefined) {
    const said = host.output().trim().split('\n').at(-1) ?? '';
    const clear = readOnlyWords.test(said);
    return {
      probe,
      tried: 1,
      failed: clear ? 0 : 1,
      lost: null,
      required: true,
      note: `the host refused to start${clear ? '' : ' without naming the problem'}: ${said.slice(0, 150)}`,
    };
  }
  const client = sessionClient(url);
  const writes: [string, Answer][] = [
    ['CreateSession', await answerOf((signal) => client.createSession({ cwd }, { signal }))],
    [
      'Prompt',
      await answerOf((signal) =>
        client.prompt(
          { sessionId, content: textContent('hi'), mode: PromptMode.QUEUE },
          { signal },
        ),
      ),
    ],
  ];
  await sleep(1_000);
  const reads: [string, Answer][] = [
    ['ListSessions', await answerOf((signal) => client.listSessions({}, { signal }))],
    ['Page', await answerOf((signal) => client.page({ sessionId }, { signal }))],
    [
      'Page approvals',
      await answerOf((signal) => client.page({ sessionId: 'approvals' }, { signal })),
    ],
    ['Follow', await answerOf(() => readSession(client, sessionId, 5_000))],
  ];
  const listed = await listedProblems(client, 'while read-only');
  const alive = host.alive();
  await host.stop();
  // A write that succeeds on a read-only dir is impossible; one that "succeeds" lies.
  const badWrites = writes.filter(([, a]) => a.code === 'ok' || !isClear(a, readOnlyWords));
  const badReads = reads.filter(([, a]) => a.code !== 'ok');
  return {
    probe,
    tried: writes.length + reads.length + 1,
    failed: badWrites.length + badReads.length + listed.length + (alive ? 0 : 1),
    lost: null,
    required: true,
    note: [...writes, ...reads]
      .map(([what, a]) => describeAnswer(what, a))
      .concat(listed, alive ? [] : ['the host died'])
      .join('; '),
  };
}

function skipped(probe: string, why: string): RowResult {
  return { probe, tried: 0, failed: 0, lost: null, required: true, note: '', skipped: why };
}
