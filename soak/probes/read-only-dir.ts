import { chmodSync, copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PromptMode } from '@dsh/gen/service';
import { answerOf, describeAnswer, isClear, type Answer } from '../lib/answer.js';
import { sessionClient, textContent } from '../lib/clients.js';
import { launchHost } from '../lib/host-process.js';
import { listedProblems } from '../lib/journal-checks.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';
import type { SoakContext } from '../lib/soak-context.js';
import { canMount, mountTmpfs, remount, unmount } from '../lib/tmpfs.js';
import { idleLastSeq } from '../lib/workload.js';
import { fixtureJournal } from './fixture-journal.js';

const readOnlyWords = /read-only|read only|EROFS|EACCES|permission|writable/i;

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
