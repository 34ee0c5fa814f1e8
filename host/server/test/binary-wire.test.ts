import { create, fromBinary, toBinary, toJson } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { createClient, type Client } from '@connectrpc/connect';
import { SessionEventEntrySchema, SessionEventSchema } from '@dsh/gen/events';
import {
  FollowResponseSchema,
  ListSessionsResponseSchema,
  PageResponseSchema,
  SessionService,
  SessionSummarySchema,
  WatchSessionsResponseSchema,
  type FollowResponse,
} from '@dsh/gen/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedEntries, encodedSummaries, isBinaryWire } from '../src/session/binary-wire.js';
import { SharedFrames } from '../src/session/shared-frames.js';
import { conversation, iterate, startTestHost, take, type TestHost } from './test-host.js';

describe('isBinaryWire()', () => {
  it.each([
    ['application/proto', true],
    ['application/connect+proto', true],
    ['application/grpc', true],
    ['application/grpc+proto', true],
    ['application/grpc-web+proto', true],
    ['application/grpc-web-text', true],
    ['Application/Proto; charset=utf-8', true],
    ['application/json', false],
    ['application/connect+json', false],
    ['application/grpc+json', false],
    ['application/grpc-web+json', false],
    ['text/plain', false],
    [undefined, false],
  ])('%s -> %s', (type, binary) => {
    const header = new Headers(type === undefined ? {} : { 'content-type': type });
    expect(isBinaryWire(header)).toBe(binary);
  });
});

describe('encodedEntries / encodedSummaries', () => {
  it('write a repeated field as the encoder would, the record after its tag', () => {
    const events = [3, 4].map((seq) => create(SessionEventSchema, { seq }));
    const expected = new BinaryWriter();
    for (const event of events) {
      const entry = create(SessionEventEntrySchema, { event });
      expected.tag(4, WireType.LengthDelimited).bytes(toBinary(SessionEventEntrySchema, entry));
    }
    const [record, ...more] = encodedEntries.field(4, events);
    expect(more).toEqual([]);
    const written = new BinaryWriter().tag(record!.no, record!.wireType).raw(record!.data);
    expect(written.finish()).toEqual(expected.finish());
    expect(encodedEntries.field(1, [])).toEqual([]);
    const summary = create(SessionSummarySchema, { id: 's', title: 't' });
    const once = encodedSummaries.field(1, [summary])[0]!.data;
    expect(encodedSummaries.field(1, [summary])[0]!.data).toEqual(once);
  });
});

describe('EncodedOnce.nested', () => {
  it('writes a message holding the repeated field as the encoder would', () => {
    const events = [7, 8, 9].map((seq) => create(SessionEventSchema, { seq }));
    const expected = toBinary(
      FollowResponseSchema,
      create(FollowResponseSchema, {
        frame: { case: 'events', value: { events: events.map((event) => ({ event })) } },
      }),
    );
    const record = encodedEntries.nested(4, 1, events);
    const written = new BinaryWriter().tag(record.no, record.wireType).raw(record.data);
    expect(written.finish()).toEqual(expected);
  });
});

describe('SharedFrames.record', () => {
  const events = [1, 2, 3, 4].map((seq) => create(SessionEventSchema, { seq }));
  const decode = (record: ReturnType<SharedFrames['record']>) =>
    fromBinary(
      FollowResponseSchema,
      new BinaryWriter().tag(record[0]!.no, record[0]!.wireType).raw(record[0]!.data).finish(),
    );

  it.each([
    { name: 'a batch', start: 1, end: 4, batch: true, seqs: [2, 3, 4] },
    { name: 'one event', start: 2, end: 3, batch: false, seqs: [3] },
  ])('builds $name once and shares it with an equal run', ({ start, end, batch, seqs }) => {
    const frames = new SharedFrames(4, 1 << 20);
    const record = frames.record(events, start, end, batch);
    const frame = decode(record).frame;
    const sent =
      frame.case === 'events'
        ? frame.value.events.map((e) => e.event!.seq)
        : frame.case === 'event'
          ? [frame.value.event!.seq]
          : [];
    expect(frame.case).toBe(batch ? 'events' : 'event');
    expect(sent).toEqual(seqs);
    expect(frames.record([...events], start, end, batch)).toBe(record);
    expect(frames.record(events, start, end - 1 || 1, !batch)).not.toBe(record);
  });

  it('drops the oldest runs past its capacity', () => {
    const frames = new SharedFrames(2, 1 << 20);
    const first = frames.record(events, 0, 1, true);
    frames.record(events, 1, 2, true);
    frames.record(events, 2, 3, true);
    expect(frames.record(events, 0, 1, true)).not.toBe(first);
  });
});

/** Every wire format a client can pick, and the plain JSON client to compare with. */
type Kind = 'connect-binary' | 'connect-h2' | 'grpc' | 'grpc-web';

describe('responses built from shared encodings', () => {
  let host: TestHost;
  let sessionId: string;
  beforeAll(async () => {
    host = await startTestHost();
    const journal = await host.store.create({ cwd: host.dir, title: 'wire' });
    await journal.append(conversation(3));
    sessionId = journal.header.sessionId;
  });
  afterAll(() => host.close());

  function clientFor(kind: Kind): Client<typeof SessionService> {
    if (kind !== 'grpc-web') return host.clientFor(kind);
    return createClient(
      SessionService,
      createGrpcWebTransport({ baseUrl: host.server.url, httpVersion: '1.1' }),
    );
  }

  async function followFrames(client: Client<typeof SessionService>, maxBatchEvents: number) {
    const abort = new AbortController();
    const stream = iterate(client.follow({ sessionId, maxBatchEvents }, { signal: abort.signal }));
    const frames: FollowResponse[] = [];
    let events = 0;
    while (events < 21) {
      const [frame] = await take(stream, 1);
      frames.push(frame!);
      if (frame!.frame.case === 'event') events += 1;
      if (frame!.frame.case === 'events') events += frame!.frame.value.events.length;
    }
    abort.abort();
    return frames.map((f) => toJson(FollowResponseSchema, f));
  }

  it.each<Kind>(['connect-binary', 'connect-h2', 'grpc', 'grpc-web'])(
    '%s: Page, Follow, ListSessions and WatchSessions decode to what the JSON client gets',
    async (kind) => {
      const json = host.client;
      const other = clientFor(kind);
      const page = async (c: Client<typeof SessionService>) =>
        toJson(PageResponseSchema, await c.page({ sessionId, maxMessages: 4 }));
      expect(await page(other)).toEqual(await page(json));
      const older = async (c: Client<typeof SessionService>) =>
        toJson(PageResponseSchema, await c.page({ sessionId, beforeSeq: 9 }));
      expect(await older(other)).toEqual(await older(json));
      const list = async (c: Client<typeof SessionService>) =>
        toJson(ListSessionsResponseSchema, await c.listSessions({}));
      expect(await list(other)).toEqual(await list(json));
      const snapshot = async (c: Client<typeof SessionService>) => {
        const abort = new AbortController();
        const [first] = await take(iterate(c.watchSessions({}, { signal: abort.signal })), 1);
        abort.abort();
        return toJson(WatchSessionsResponseSchema, first!);
      };
      expect(await snapshot(other)).toEqual(await snapshot(json));
      for (const batch of [0, 500]) {
        expect(await followFrames(other, batch)).toEqual(await followFrames(json, batch));
      }
    },
  );
});
