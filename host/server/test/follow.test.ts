import { Code, ConnectError } from '@connectrpc/connect';
import { userMessage } from '@dsh/fixtures';
import { create } from '@bufbuild/protobuf';
import { SessionEventSchema, type SessionEvent, type SessionEventEntry } from '@dsh/gen/events';
import type { FollowResponse } from '@dsh/gen/service';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteLineLength, type Journal } from '@dsh/journal';
import { batchChars, batchEnd, maxBatchEvents } from '../src/session/follow.js';
import {
  conversation,
  iterate,
  rpcError,
  startTestHost,
  take,
  type TestHost,
} from './test-host.js';

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function setup(
  events: number,
  follow: { heartbeatMs?: number; queueLimit?: number } = {},
): Promise<{ host: TestHost; journal: Journal }> {
  host = await startTestHost({ follow: { heartbeatMs: 60_000, ...follow } });
  const journal = await host.store.create({ cwd: host.dir });
  const payloads = conversation(Math.ceil(events / 7)).slice(0, events);
  if (payloads.length > 0) await journal.append(payloads);
  return { host, journal };
}

function seqOf(frame: FollowResponse): number {
  if (frame.frame.case !== 'event') throw new Error(`expected an event, got ${frame.frame.case}`);
  return frame.frame.value.event!.seq;
}

/** Reads frames until the event with seq `last`, returning every event seq seen. */
async function eventsUntil(it: AsyncIterator<FollowResponse>, last: number): Promise<number[]> {
  const seqs: number[] = [];
  for (;;) {
    const next = await it.next();
    if (next.done === true) throw new Error(`stream ended after ${seqs.at(-1)}`);
    if (next.value.frame.case !== 'event') continue;
    seqs.push(seqOf(next.value));
    if (seqs.at(-1)! >= last) return seqs;
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

describe('batchEnd', () => {
  const sized = (lengths: (number | undefined)[]): SessionEvent[] =>
    lengths.map((length, seq) => {
      const event = create(SessionEventSchema, { seq });
      if (length !== undefined) noteLineLength(event, length);
      return event;
    });
  it.each([
    {
      name: 'one event per frame when batching is off',
      lengths: [10, 10, 10],
      max: 0,
      ends: [1, 2, 3],
    },
    { name: 'up to max events per frame', lengths: [10, 10, 10, 10, 10], max: 2, ends: [2, 4, 5] },
    { name: 'small events in one frame', lengths: [10, 10, 10], max: 500, ends: [3] },
    {
      name: 'stops before the size bound',
      lengths: [200_000, 100_000, 10],
      max: 500,
      ends: [1, 3],
    },
    {
      name: 'an event over the bound travels alone',
      lengths: [10, 300_000, 10],
      max: 500,
      ends: [1, 2, 3],
    },
    {
      name: 'an event of unknown size travels alone',
      lengths: [10, undefined, 10],
      max: 500,
      ends: [1, 2, 3],
    },
  ])('$name', ({ lengths, max, ends }) => {
    const events = sized(lengths);
    const got: number[] = [];
    for (let i = 0; i < events.length; i = got.at(-1)!) got.push(batchEnd(events, i, max));
    expect(got).toEqual(ends);
    expect(batchChars).toBe(256 * 1024);
  });
});

describe('Follow (RPC)', () => {
  it('sends events frames of contiguous seqs when the request asks for batches', async () => {
    const { host, journal } = await setup(700);
    const ac = new AbortController();
    const it = iterate(
      host.client.follow(
        { sessionId: journal.header.sessionId, afterSeq: 9, maxBatchEvents: 100_000 },
        { signal: ac.signal },
      ),
    );
    await take(it, 1);
    const sizes: number[] = [];
    const seqs: number[] = [];
    while (seqs.at(-1) !== 699) {
      const { value } = await it.next();
      if (value?.frame.case !== 'events')
        throw new Error(`expected events, got ${value?.frame.case}`);
      sizes.push(value.frame.value.events.length);
      seqs.push(...value.frame.value.events.map((e: SessionEventEntry) => e.event!.seq));
    }
    expect(seqs).toEqual(range(10, 700));
    // Catch-up comes in few frames, none over the host's cap.
    expect(sizes.length).toBeLessThan(10);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(maxBatchEvents);
    await journal.append([userMessage('live 1'), userMessage('live 2')]);
    const live: number[] = [];
    while (live.at(-1) !== 701) {
      const { value } = await it.next();
      if (value?.frame.case === 'events')
        live.push(...value.frame.value.events.map((e: SessionEventEntry) => e.event!.seq));
    }
    expect(live).toEqual([700, 701]);
    ac.abort();
  });

  it('ends open streams when the server closes', async () => {
    const { host, journal } = await setup(3);
    const it = iterate(host.client.follow({ sessionId: journal.header.sessionId, afterSeq: 2 }));
    await take(it, 1);
    const closed = host.server.close();
    const error = await rpcError(take(it, 1));
    expect(error).toBeInstanceOf(ConnectError);
    await closed;
    expect(journal.tailCount).toBe(0);
  });

  it('sends the opening frame, then contiguous catch-up and live events', async () => {
    const { host, journal } = await setup(70);
    const ac = new AbortController();
    const it = iterate(
      host.client.follow(
        { sessionId: journal.header.sessionId, afterSeq: 9 },
        { signal: ac.signal },
      ),
    );
    const [opening] = await take(it, 1);
    expect(opening!.frame).toMatchObject({ case: 'opening', value: { firstSeq: 10, lastSeq: 69 } });
    expect(await eventsUntil(it, 69)).toEqual(range(10, 70));
    await journal.append([userMessage('live 1'), userMessage('live 2')]);
    expect(await eventsUntil(it, 71)).toEqual([70, 71]);
    ac.abort();
  });

  it('without after_seq starts at seq 0; an empty journal has no last_seq', async () => {
    const { host, journal } = await setup(0);
    const ac = new AbortController();
    const it = iterate(
      host.client.follow({ sessionId: journal.header.sessionId }, { signal: ac.signal }),
    );
    const [opening] = await take(it, 1);
    expect(opening!.frame).toMatchObject({ case: 'opening', value: { firstSeq: 0 } });
    expect(opening!.frame.case === 'opening' && opening!.frame.value.lastSeq).toBeUndefined();
    await journal.append([userMessage('first')]);
    expect(await eventsUntil(it, 0)).toEqual([0]);
    ac.abort();
  });

  it('delivers events appended during catch-up exactly once, in order', async () => {
    const { host, journal } = await setup(5_000);
    const appends: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i += 1) {
      appends.push(
        journal.append([userMessage(`a${i}`), userMessage(`b${i}`), userMessage(`c${i}`)]),
      );
    }
    const ac = new AbortController();
    const it = iterate(
      host.client.follow(
        { sessionId: journal.header.sessionId, afterSeq: 0 },
        { signal: ac.signal },
      ),
    );
    for (let i = 0; i < 100; i += 1) appends.push(journal.append([userMessage(`late ${i}`)]));
    await Promise.all(appends);
    const last = journal.length - 1;
    expect(last).toBe(5_000 + 600 + 100 - 1);
    expect(await eventsUntil(it, last)).toEqual(range(1, last + 1));
    ac.abort();
  });

  it('loses and repeats nothing across a reconnect with after_seq', async () => {
    const { host, journal } = await setup(30);
    const sessionId = journal.header.sessionId;
    const first = new AbortController();
    const it1 = iterate(host.client.follow({ sessionId, afterSeq: 4 }, { signal: first.signal }));
    const got = await eventsUntil(it1, 19);
    first.abort();
    await journal.append(conversation(3, 100));
    const second = new AbortController();
    const it2 = iterate(
      host.client.follow({ sessionId, afterSeq: got.at(-1)! }, { signal: second.signal }),
    );
    const [opening] = await take(it2, 1);
    expect(opening!.frame).toMatchObject({ case: 'opening', value: { firstSeq: 20, lastSeq: 50 } });
    got.push(...(await eventsUntil(it2, 50)));
    expect(got).toEqual(range(5, 51));
    second.abort();
  });

  it('leaves no listener behind after 1,000 follow/abort cycles', async () => {
    const { host, journal } = await setup(20);
    const clients = [host.client, host.clientFor('connect-h2')];
    for (let i = 0; i < 1_000; i += 1) {
      const ac = new AbortController();
      const it = iterate(
        clients[i % 2]!.follow(
          { sessionId: journal.header.sessionId, afterSeq: i % 19 },
          { signal: ac.signal },
        ),
      );
      await take(it, 2); // the opening frame and one event
      ac.abort();
    }
    await vi.waitFor(() => expect(journal.tailCount).toBe(0), { timeout: 10_000 });
    expect(host.logs).toEqual([]); // a client's cancel is not a failure
  }, 120_000);

  it('closes a follower that falls behind with resource_exhausted; it resumes with after_seq', async () => {
    const { host, journal } = await setup(10, { queueLimit: 20 });
    const sessionId = journal.header.sessionId;
    const big = 'x'.repeat(64 * 1024);
    const ac = new AbortController();
    const it = iterate(host.client.follow({ sessionId, afterSeq: 9 }, { signal: ac.signal }));
    await take(it, 1); // the opening frame; then this client stops reading
    for (let i = 0; i < 150; i += 1) {
      await journal.append([0, 1, 2, 3].map((j) => userMessage(`${i}.${j} ${big}`)));
    }
    const received: number[] = [];
    const error = await rpcError(
      (async () => {
        for (;;) {
          const next = await it.next();
          if (next.done === true) return;
          if (next.value.frame.case === 'event') received.push(seqOf(next.value));
        }
      })(),
    );
    expect(error?.code).toBe(Code.ResourceExhausted);
    const resumeAt = received.at(-1) ?? 9;
    expect(error?.rawMessage).toContain(`after_seq=${resumeAt}`);
    expect(received).toEqual(range(10, resumeAt + 1));
    await vi.waitFor(() => expect(journal.tailCount).toBe(0));
    const again = iterate(
      host.client.follow({ sessionId, afterSeq: resumeAt }, { signal: ac.signal }),
    );
    await take(again, 1);
    const rest = await eventsUntil(again, journal.length - 1);
    expect([...received, ...rest]).toEqual(range(10, journal.length));
    ac.abort();
  });

  it('sends a heartbeat when idle', async () => {
    const { host, journal } = await setup(3, { heartbeatMs: 50 });
    const ac = new AbortController();
    const it = iterate(
      host.client.follow(
        { sessionId: journal.header.sessionId, afterSeq: 2 },
        { signal: ac.signal },
      ),
    );
    const frames = await take(it, 3);
    expect(frames.map((f) => f.frame.case)).toEqual(['opening', 'heartbeat', 'heartbeat']);
    ac.abort();
  });

  it.each([
    ['after_seq at the event count', 3, Code.InvalidArgument],
    ['after_seq past the end', 1_000, Code.InvalidArgument],
  ])('refuses %s', async (_name, afterSeq, code) => {
    const { host, journal } = await setup(3);
    const stream = host.client.follow({ sessionId: journal.header.sessionId, afterSeq });
    const error = await rpcError(take(iterate(stream), 1));
    expect(error?.code).toBe(code);
    expect(error?.rawMessage).toContain('without it to start at seq 0');
    expect(journal.tailCount).toBe(0);
  });

  it('refuses an unknown session with not_found', async () => {
    const { host } = await setup(0);
    const error = await rpcError(take(iterate(host.client.follow({ sessionId: 'missing' })), 1));
    expect(error?.code).toBe(Code.NotFound);
  });
});
