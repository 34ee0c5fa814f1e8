import { closeSync, copyFileSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PromptMode } from '@dsh/gen/service';
import { answerOf, describeAnswer, isClear, type Answer } from '../lib/answer.js';
import { sessionClient, textContent } from '../lib/clients.js';
import { directive } from '../lib/fake-model.js';
import { filesProblems, listedProblems } from '../lib/journal-checks.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';
import type { SoakContext } from '../lib/soak-context.js';
import { canMount, mountTmpfs, unmount } from '../lib/tmpfs.js';
import { idleLastSeq } from '../lib/workload.js';
import { fixtureJournal, skipped } from './fixture-journal.js';

const spaceWords = /space|full|ENOSPC|disk/i;

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
