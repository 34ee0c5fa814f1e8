import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PromptMode } from '@dsh/gen/service';
import { sessionClient, textContent } from '../lib/clients.js';
import { directive } from '../lib/fake-model.js';
import { launchHost } from '../lib/host-process.js';
import { readJournalFile, seqProblems } from '../lib/journal-file.js';
import type { Probe } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';

/**
 * Two `dsh serve` on one data dir: the second must refuse to start. When it serves
 * instead, both hosts run a turn on the same session and the journal file is checked
 * for seqs written twice.
 */
export const twoHosts: Probe = {
  name: 'two-hosts',
  short: true,
  async run(ctx) {
    const dataDir = join(ctx.dir('two-hosts'), 'sessions');
    const first = await ctx.host({ dataDir });
    const second = launchHost({
      dataDir,
      home: ctx.dir('home'),
      cwd: ctx.dir('cwd'),
      args: ctx.hostArgs(),
    });
    const url = await second.serving.catch(() => undefined);
    try {
      if (url === undefined) {
        const said = second.output().trim().split('\n').at(-1) ?? '';
        const { code } = await second.exited;
        return [
          {
            probe: 'two hosts on one data dir',
            tried: 1,
            failed: 0,
            lost: 0,
            required: true,
            note: `the second host refused to start (exit ${code}): ${said.slice(0, 160)}`,
          },
        ];
      }
      const a = sessionClient(first.url);
      const b = sessionClient(url);
      const created = await a.createSession({ cwd: ctx.dir('cwd') });
      const sessionId = created.session?.id ?? '';
      const prompt = {
        sessionId,
        content: textContent(directive({ stream: { chunks: 60, delayMs: 5 } })),
        mode: PromptMode.QUEUE,
      };
      const answers = await Promise.allSettled([a.prompt(prompt), b.prompt(prompt)]);
      await sleep(ctx.short ? 2_000 : 4_000);
      const file = readJournalFile(join(dataDir, `${sessionId}.jsonl`));
      const { duplicates, gaps } = seqProblems(file.seqs);
      const served = await readSession(a, sessionId, 10_000).catch((e: Error) => e);
      return [
        {
          probe: 'two hosts on one data dir',
          tried: 1,
          failed: 1,
          lost: duplicates,
          required: true,
          note:
            `the second host started and served ${url}; ${answers.filter((x) => x.status === 'fulfilled').length}/2 prompts taken; ` +
            `journal: ${file.seqs.length} event lines, ${duplicates} duplicate seqs, ${gaps} missing, ${file.badLines} bad lines; ` +
            `the first host then ${served instanceof Error ? `fails to read it: ${served.message.slice(0, 100)}` : `serves ${served.length} events`}`,
        },
      ];
    } finally {
      await second.stop();
      await first.stop();
    }
  },
};
