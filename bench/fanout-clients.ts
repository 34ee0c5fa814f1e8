/**
 * The load of the `fanout` bench, run in a child process of its own so that clients do
 * not share the bench's (or the host's) event loop:
 * `node host/cli/bin/run-ts.js bench/fanout-clients.ts JOB_JSON`, with an IPC channel.
 * A `follow` job opens its followers, says `ready`, reports `ended` each time all of them
 * saw a `turn/end`, and on `stop` sends its samples; a `page` job, on `start`, keeps
 * `concurrency` tail `Page` requests in flight until `untilMs` and sends its samples.
 */
import { setMaxListeners } from 'node:events';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import type { SessionEventEntry } from '@dsh/gen/events';
import { SessionService } from '@dsh/gen/service';
import {
  followOverWire,
  pageOverWire,
  type FollowHandlers,
  type WireEvent,
} from './wire-client.js';

/** What a child is asked to do. */
export type ClientJob =
  | { kind: 'follow'; url: string; sessionId: string; followers: number; reader: ClientReader }
  | { kind: 'page'; url: string; sessionId: string; concurrency: number; reader: ClientReader };

/**
 * How a child reads the host's answers: `wire` walks only the fields a measurement needs
 * (`wire-client.ts`), `connect` is the Connect client, decoding every message as the
 * product's clients do. The host's work is the same; the child's CPU is not.
 */
export type ClientReader = 'wire' | 'connect';

/** Messages from the bench to a child. */
export type ToClient =
  /** Page requests from now until `untilMs`; those sent before `fromMs` warm up, uncounted. */
  { type: 'start'; fromMs: number; untilMs: number } | { type: 'reset' } | { type: 'stop' };

/** Messages from a child to the bench. */
export type FromClient =
  | { type: 'ready' }
  | { type: 'ended'; turns: number }
  | {
      type: 'follow-result';
      /** Receive time minus the event's journal time, ms, per `assistant/chunk` per follower. */
      latencies: number[];
      frames: number;
      events: number;
      /** Streams the host ended as too slow (`resource_exhausted`), each resumed after its last seq. */
      reconnects: number;
    }
  | {
      type: 'page-result';
      latencies: number[];
      errors: number;
      /** Epoch ms of the first request sent and of the last answer received. */
      firstMs: number;
      lastMs: number;
      error?: string;
    };

const send = (message: FromClient): void => void process.send?.(message);
/** Sends the last message and leaves once it is written. */
const sendLast = (message: FromClient): void =>
  void process.send?.(message, undefined, {}, () => process.exit(0));
const nowMs = (): number => performance.timeOrigin + performance.now();

function clientOf(url: string): Client<typeof SessionService> {
  return createClient(
    SessionService,
    createConnectTransport({ baseUrl: url, httpVersion: '1.1', useBinaryFormat: true }),
  );
}

/** `followOverWire` through the Connect client, which decodes every message. */
function connectFollower(url: string): typeof followOverWire {
  const client = clientOf(url);
  return async (_url, params, on, signal) => {
    try {
      for await (const response of client.follow(params, { signal, timeoutMs: 0 })) {
        const frame = response.frame;
        if (frame.case === 'opening') on.opening();
        if (frame.case === 'event') on.events(wireEvents([frame.value]));
        if (frame.case === 'events') on.events(wireEvents(frame.value.events));
      }
      return { ok: true };
    } catch (error) {
      if (signal.aborted) throw error;
      const connect = ConnectError.from(error);
      const code =
        connect.code === Code.ResourceExhausted ? 'resource_exhausted' : Code[connect.code];
      return { ok: false, code, message: connect.rawMessage };
    }
  };
}

const wireEvents = (entries: readonly SessionEventEntry[]): WireEvent[] =>
  entries.flatMap(({ event }) =>
    event === undefined
      ? []
      : [
          {
            seq: event.seq,
            timeMs: event.time === undefined ? undefined : timestampMs(event.time),
            payload: event.payload.case,
          },
        ],
  );

function runFollow(job: Extract<ClientJob, { kind: 'follow' }>): void {
  const abort = new AbortController();
  // Every follower listens on the one signal.
  setMaxListeners(0, abort.signal);
  let latencies: number[] = [];
  let frames = 0;
  let events = 0;
  let opened = 0;
  const turnEnds: number[] = Array.from({ length: job.followers }, () => 0);
  const lastSeq: (number | undefined)[] = Array.from({ length: job.followers }, () => undefined);
  let reconnects = 0;
  let reported = 0;
  const receive = (follower: number, entries: readonly WireEvent[]): void => {
    const at = nowMs();
    frames++;
    for (const event of entries) {
      events++;
      lastSeq[follower] = event.seq;
      if (event.payload === 'assistantChunk' && event.timeMs !== undefined) {
        latencies.push(Math.round((at - event.timeMs) * 100) / 100);
      }
      if (event.payload === 'turnEnd') turnEnds[follower]!++;
    }
    const all = Math.min(...turnEnds);
    if (all > reported) {
      reported = all;
      send({ type: 'ended', turns: all });
    }
  };
  const everOpened: boolean[] = Array.from({ length: job.followers }, () => false);
  const stream = job.reader === 'wire' ? followOverWire : connectFollower(job.url);
  // A follower the host drops as too slow reconnects after its last seq, as clients do.
  const follow = async (i: number): Promise<void> => {
    for (;;) {
      const afterSeq = lastSeq[i];
      const params = {
        sessionId: job.sessionId,
        maxBatchEvents: 500,
        ...(afterSeq === undefined ? {} : { afterSeq }),
      };
      try {
        const on: FollowHandlers = {
          opening: () => {
            if (!everOpened[i] && ++opened === job.followers) send({ type: 'ready' });
            everOpened[i] = true;
          },
          events: (entries) => receive(i, entries),
        };
        const end = await stream(job.url, params, on, abort.signal);
        if (end.ok) return;
        if (end.code === 'resource_exhausted') {
          reconnects++;
          continue;
        }
        process.stderr.write(`fanout follower ${i}: ${end.code}: ${end.message}\n`);
        return;
      } catch (error) {
        if (abort.signal.aborted) return;
        process.stderr.write(`fanout follower ${i}: ${String(error)}\n`);
        return;
      }
    }
  };
  for (let i = 0; i < job.followers; i++) void follow(i);
  process.on('message', (message: ToClient) => {
    if (message.type === 'reset') {
      latencies = [];
      frames = 0;
      events = 0;
      reconnects = 0;
    }
    if (message.type !== 'stop') return;
    abort.abort();
    sendLast({ type: 'follow-result', latencies, frames, events, reconnects });
  });
}

/** `pageOverWire` through the Connect client, which decodes the whole page. */
function connectPage(url: string): typeof pageOverWire {
  const client = clientOf(url);
  return async (_url, sessionId) =>
    (await client.page({ sessionId }, { timeoutMs: 120_000 })).events.length;
}

function runPage(job: Extract<ClientJob, { kind: 'page' }>): void {
  const page = job.reader === 'wire' ? pageOverWire : connectPage(job.url);
  process.on('message', (message: ToClient) => {
    if (message.type !== 'start') return;
    const latencies: number[] = [];
    let errors = 0;
    let error: string | undefined;
    const firstMs = message.fromMs;
    let lastMs = firstMs;
    const worker = async (): Promise<void> => {
      while (nowMs() < message.untilMs) {
        const counted = nowMs() >= message.fromMs;
        const start = performance.now();
        try {
          if ((await page(job.url, job.sessionId)) === 0) throw new Error('an empty tail page');
          if (counted) latencies.push(performance.now() - start);
        } catch (caught) {
          errors++;
          error ??= String(caught);
        }
        lastMs = nowMs();
      }
    };
    void Promise.all(Array.from({ length: job.concurrency }, worker)).then(() => {
      sendLast({ type: 'page-result', latencies, errors, firstMs, lastMs, error });
    });
  });
  send({ type: 'ready' });
}

const job = JSON.parse(process.argv[2] ?? '{}') as ClientJob;
// The bench going away (even killed) ends the child.
process.on('disconnect', () => process.exit(0));
switch (job.kind) {
  case 'follow':
    runFollow(job);
    break;
  case 'page':
    runPage(job);
    break;
  default: {
    const unknown: never = job;
    throw new Error(`unknown job ${JSON.stringify(unknown)}`);
  }
}
