import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { protocols, sessionClient, type SessionClient } from '../lib/clients.js';
import type { Probe } from '../lib/probe.js';
import { createPrng } from '@dsh/fixtures/prng';
import { crowdArgs } from '../lib/soak-context.js';
import { startWorkload } from '../lib/workload.js';

/** Events per frame the followers ask for, as the clients do (client-live's `followBatchEvents`). */
const followBatchEvents = 500;

/** How long followers get to reach the end once the appends stop. */
const graceMs = 120_000;

/** One follower's account of what it received across its reconnects. */
interface Tally {
  next: number;
  streams: number;
  gaps: number;
  missing: number;
  duplicates: number;
  errors: string[];
}

/**
 * Many followers of one live session, each disconnecting at random (after a random number
 * of events, or a random time) and resuming with `after_seq` = the last seq it got. Every
 * follower must end with every event exactly once, in order.
 */
export const manyFollowers: Probe = {
  name: 'followers',
  short: true,
  async run(ctx) {
    const count = ctx.short ? 60 : 1_000;
    const workMs = ctx.short ? 5_000 : 40_000;
    const random = createPrng(1_000).next;
    const host = await ctx.host({ serveArgs: crowdArgs(count) });
    // The appends get their own HTTP/2 connection: a kept-alive HTTP/1.1 socket shared with
    // hundreds of followers can be reused just as the host closes it for idleness.
    const control = sessionClient(host.url, 'connect-binary');
    const created = await control.createSession({ cwd: ctx.dir('cwd') });
    const sessionId = created.session?.id ?? '';
    const work = await startWorkload(control, sessionId, { ms: workMs, chunks: 100, delayMs: 20 });
    // One client (one HTTP/2 connection) per ten followers, as a crowd of browsers has:
    // hundreds of followers resetting streams on one connection would trip Node's
    // rapid-reset guard (GOAWAY after ~1,000 resets at 33/s), which protects the host as meant.
    const crowd = Array.from({ length: Math.ceil(count / 10) }, (_, i) =>
      sessionClient(host.url, protocols[i % protocols.length]),
    );
    const end: { seq?: number } = {};
    const tallies = Array.from({ length: count }, (_, i) =>
      followAtRandom(crowd[i % crowd.length]!, sessionId, random, () => end.seq),
    );
    // A crowd that stops making progress shows in the log long before the probe's budget ends.
    const progress = setInterval(() => {
      const reached = tallies.filter((t) => t.finished).length;
      const streams = tallies.reduce((n, t) => n + t.tally.streams, 0);
      const errors = tallies.reduce((n, t) => n + t.tally.errors.length, 0);
      const state = end.seq === undefined ? 'appending' : `appends stopped at seq ${end.seq}`;
      ctx.log(
        `followers: ${state}; ${reached}/${count} at the end, ${streams} streams, ${errors} errors`,
      );
    }, 15_000);
    const last = await work.stop().catch((error: unknown) => {
      clearInterval(progress);
      throw error;
    });
    end.seq = last;
    const giveUp = new AbortController();
    const deadline = sleep(graceMs, 'deadline' as const, { signal: giveUp.signal }).catch(
      () => 'done' as const,
    );
    const finished = await Promise.race([Promise.all(tallies.map((t) => t.done)), deadline]);
    giveUp.abort();
    clearInterval(progress);
    for (const t of tallies) t.stop();
    const all = tallies.map((t) => t.tally);
    const sum = (pick: (t: Tally) => number): number => all.reduce((n, t) => n + pick(t), 0);
    const incomplete = all.filter((t) => t.next !== last + 1).length;
    const errors = all.flatMap((t) => t.errors);
    await host.stop();
    return [
      {
        probe: `${count} followers with random disconnects`,
        tried: sum((t) => t.streams),
        failed: sum((t) => t.gaps) + sum((t) => t.duplicates) + incomplete + errors.length,
        lost: sum((t) => t.missing),
        required: true,
        note:
          `${sum((t) => t.streams)} streams over ${protocols.join(', ')} (per-client caps raised for the crowd) on a session that grew to ${last + 1} events; ` +
          `${sum((t) => t.gaps)} gaps, ${sum((t) => t.duplicates)} duplicates, ${incomplete} followers short of the end` +
          (finished === 'deadline' ? ` (${graceMs / 1000} s after the appends stopped)` : '') +
          `, ${errors.length} unexpected errors${errors.length > 0 ? ` (${[...new Set(errors)].slice(0, 2).join('; ')})` : ''}`,
      },
    ];
  },
};

/** A follower that reconnects at random until it has seen seq `last()`. */
function followAtRandom(
  client: SessionClient,
  sessionId: string,
  random: () => number,
  last: () => number | undefined,
): { tally: Tally; done: Promise<void>; readonly finished: boolean; stop(): void } {
  const tally: Tally = { next: 0, streams: 0, gaps: 0, missing: 0, duplicates: 0, errors: [] };
  let stopped = false;
  let current: AbortController | undefined;
  const reachedEnd = (): boolean => {
    const end = last();
    return end !== undefined && tally.next > end;
  };
  let finished = false;
  const done = (async () => {
    while (!stopped && !reachedEnd()) {
      const abort = new AbortController();
      current = abort;
      tally.streams++;
      // Random disconnects while the session grows; once it stops, read on to the end.
      const live = last() === undefined;
      const budget = 1 + Math.floor(random() * 300);
      const timer = live ? setTimeout(() => abort.abort(), 1_000 + random() * 9_000) : undefined;
      let got = 0;
      try {
        const afterSeq = tally.next > 0 ? tally.next - 1 : undefined;
        const stream = client.follow(
          { sessionId, afterSeq, maxBatchEvents: followBatchEvents },
          { signal: abort.signal },
        );
        for await (const frame of stream) {
          const { case: kind, value } = frame.frame;
          if (kind === 'opening' && value.firstSeq !== tally.next) {
            tally.errors.push(`opening at ${value.firstSeq} where ${tally.next} was asked for`);
          }
          const seqs =
            kind === 'event'
              ? [value.event?.seq]
              : kind === 'events'
                ? value.events.map((e) => e.event?.seq)
                : [];
          for (const seq of seqs) {
            if (seq === undefined) tally.errors.push('a frame held an entry without an event');
            else if (seq < tally.next) tally.duplicates++;
            else {
              if (seq > tally.next) {
                tally.gaps++;
                tally.missing += seq - tally.next;
              }
              tally.next = seq + 1;
            }
          }
          got += seqs.length;
          if (reachedEnd() || (got >= budget && last() === undefined)) break;
        }
      } catch (error) {
        const expected =
          abort.signal.aborted ||
          (error instanceof ConnectError && error.code === Code.ResourceExhausted);
        if (!expected)
          tally.errors.push(error instanceof Error ? error.message.slice(0, 120) : String(error));
      } finally {
        clearTimeout(timer);
      }
      await sleep(10 + random() * 90);
    }
    finished = true;
  })();
  return {
    tally,
    done,
    get finished() {
      return finished;
    },
    stop() {
      stopped = true;
      current?.abort();
    },
  };
}
