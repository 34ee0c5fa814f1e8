import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { toBinary } from '@bufbuild/protobuf';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { sessionClient, textContent, type SessionClient } from '../lib/clients.js';
import { directive } from '../lib/fake-model.js';
import { readJournalFile, seqProblems } from '../lib/journal-file.js';
import type { Probe } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';
import type { StartedHost } from '../lib/soak-context.js';
import { createPrng } from '@dsh/fixtures/prng';

const sessionsPerRun = 3;

/** What the soak saw acknowledged in one session before a kill. */
interface Acked {
  /** Hash of every event a follower received, by seq. */
  readonly events: Map<number, string>;
  /** Prompt texts the host answered. */
  readonly prompts: string[];
}

const hash = (event: SessionEvent): string =>
  createHash('sha1').update(toBinary(SessionEventSchema, event)).digest('hex');

/**
 * kill -9 of the host while three sessions stream model output into their journals, then
 * a restart on the same data dir. Every event a follower received and every answered
 * Prompt must be there, byte for byte; a torn tail (left by the kill, or one the soak
 * writes on every other run, as power loss would) must be dropped; the session must
 * stay readable and take the next prompt. Dangling turns must be closed by then.
 */
export const killDuringAppends: Probe = {
  name: 'kill-9',
  short: true,
  async run(ctx) {
    const runs = ctx.short ? 4 : 30;
    const random = createPrng(9).next;
    const dataDir = join(ctx.dir('kill-9'), 'sessions');
    const cwd = ctx.dir('cwd');
    const acked = new Map<string, Acked>();
    let host: StartedHost | undefined = await ctx.host({ dataDir, cwd });
    const ids: string[] = [];
    const client0 = sessionClient(host.url);
    for (let i = 0; i < sessionsPerRun; i++) {
      const created = await client0.createSession({ cwd });
      const id = created.session?.id ?? '';
      ids.push(id);
      acked.set(id, { events: new Map(), prompts: [] });
    }
    let failedRuns = 0;
    let lost = 0;
    let natural = 0;
    let injected = 0;
    let queued = 0;
    const problems: string[] = [];
    for (let run = 0; run < runs; run++) {
      ctx.log(`kill-9: run ${run + 1}/${runs}`);
      host ??= await ctx.host({ dataDir, cwd });
      const client = sessionClient(host.url, run % 2 === 0 ? 'connect-json' : 'grpc');
      const stops = ids.map((id) => follow(client, id, acked.get(id)!));
      const prompts = ids.map(async (id) => {
        const text = `run ${run} ${directive({ stream: { chunks: 400, delayMs: 2, size: 80 } })}`;
        try {
          const answer = await client.prompt({
            sessionId: id,
            content: textContent(text),
            mode: PromptMode.QUEUE,
          });
          // A started prompt is on disk (user/message, turn/start); a queued one is not.
          if (answer.started) acked.get(id)!.prompts.push(text);
          else queued++;
        } catch {
          // Not answered before the kill: not acknowledged.
        }
      });
      await sleep(300 + random() * 1200);
      await host.kill9();
      host = undefined;
      await Promise.allSettled([...prompts, ...stops.map((stop) => stop())]);
      for (const [i, id] of ids.entries()) {
        const path = join(dataDir, `${id}.jsonl`);
        if (readJournalFile(path).tornTail) natural++;
        else if (run % 2 === 1 && i === run % sessionsPerRun) {
          // A half-written line, as power loss mid-write leaves it.
          const last = readFileSync(path, 'utf8').trimEnd().split('\n').at(-1) ?? '';
          appendFileSync(
            path,
            last
              .slice(0, Math.max(1, Math.floor(last.length / 2)))
              .replace(/"seq":\d+/, '"seq":999999'),
          );
          injected++;
        }
      }
      host = await ctx.host({ dataDir, cwd }).catch((error: Error) => {
        problems.push(`run ${run + 1}: the host did not restart: ${error.message.slice(0, 120)}`);
        return undefined;
      });
      if (!host) {
        failedRuns++;
        continue;
      }
      const check = await checkSessions(sessionClient(host.url), dataDir, ids, acked);
      lost += check.lost;
      if (check.problems.length > 0) {
        failedRuns++;
        problems.push(...check.problems.map((p) => `run ${run + 1}: ${p}`));
      }
    }
    const dangling = host ? await danglingTurns(sessionClient(host.url), ids) : ids.length;
    await host?.stop();
    const ackedEvents = [...acked.values()].reduce((n, a) => n + a.events.size, 0);
    const ackedPrompts = [...acked.values()].reduce((n, a) => n + a.prompts.length, 0);
    return [
      {
        probe: 'kill -9 during appends',
        tried: runs,
        failed: failedRuns + dangling,
        lost,
        required: true,
        note:
          `${runs} kills of a host streaming into ${sessionsPerRun} sessions; ${ackedEvents} events and ${ackedPrompts} prompts acknowledged before the kills; ` +
          `torn tails: ${natural} left by the kills, ${injected} written by the soak; ${dangling} turns left open after the next prompt` +
          (queued > 0 ? `; ${queued} prompts were only queued (in memory) at the kill` : '') +
          (problems.length > 0 ? `; ${problems.slice(0, 3).join('; ')}` : ''),
      },
    ];
  },
};

/** Follows a session from its last acknowledged seq, recording what arrives; returns its stop. */
function follow(client: SessionClient, sessionId: string, acked: Acked): () => Promise<void> {
  const abort = new AbortController();
  const last = Math.max(-1, ...acked.events.keys());
  const loop = (async () => {
    try {
      const stream = client.follow(
        { sessionId, ...(last >= 0 && { afterSeq: last }) },
        { signal: abort.signal },
      );
      for await (const frame of stream) {
        if (frame.frame.case === 'event' && frame.frame.value.event) {
          const event = frame.frame.value.event;
          acked.events.set(event.seq, hash(event));
        }
      }
    } catch {
      // The host was killed.
    }
  })();
  return async () => {
    abort.abort();
    await loop;
  };
}

async function checkSessions(
  client: SessionClient,
  dataDir: string,
  ids: readonly string[],
  acked: ReadonlyMap<string, Acked>,
): Promise<{ lost: number; problems: string[] }> {
  let lost = 0;
  const problems: string[] = [];
  const listed = await client.listSessions({});
  for (const id of ids) {
    const summary = listed.sessions.find((s) => s.id === id);
    if (!summary) problems.push(`${id} is not listed`);
    else if (summary.error !== '')
      problems.push(`${id} is listed with error: ${summary.error.slice(0, 100)}`);
    let events: SessionEvent[];
    try {
      events = await readSession(client, id);
    } catch (error) {
      problems.push(`${id} cannot be read: ${(error as Error).message.slice(0, 100)}`);
      lost += acked.get(id)?.events.size ?? 0;
      continue;
    }
    const bySeq = new Map(events.map((e) => [e.seq, hash(e)]));
    const want = acked.get(id)!;
    for (const [seq, digest] of want.events) if (bySeq.get(seq) !== digest) lost++;
    const texts = events.flatMap((e) =>
      e.payload.case === 'userMessage'
        ? e.payload.value.content.map((b) => (b.block.case === 'text' ? b.block.value.text : ''))
        : [],
    );
    lost += want.prompts.filter((p) => !texts.includes(p)).length;
    const file = readJournalFile(join(dataDir, `${id}.jsonl`));
    const { duplicates, gaps } = seqProblems(file.seqs);
    if (file.tornTail || file.badLines > 0 || duplicates > 0 || gaps > 0) {
      problems.push(
        `${id} file after reopen: torn tail ${file.tornTail}, ${file.badLines} bad lines, ${duplicates} duplicate and ${gaps} missing seqs`,
      );
    }
  }
  return { lost, problems };
}

/** Prompts each session once more and counts turns that never got a `turn/end`. */
async function danglingTurns(client: SessionClient, ids: readonly string[]): Promise<number> {
  let open = 0;
  for (const id of ids) {
    await client
      .prompt({ sessionId: id, content: textContent('last words'), mode: PromptMode.QUEUE })
      .catch(() => undefined);
  }
  await sleep(1_500);
  for (const id of ids) {
    const events = await readSession(client, id).catch(() => []);
    let started: number | undefined;
    for (const event of events) {
      if (event.payload.case === 'turnStart') {
        if (started !== undefined) open++;
        started = event.payload.value.turn;
      } else if (event.payload.case === 'turnEnd') started = undefined;
    }
  }
  return open;
}
