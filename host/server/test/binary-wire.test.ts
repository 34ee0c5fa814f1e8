import { create, toBinary, toJson } from '@bufbuild/protobuf';
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
