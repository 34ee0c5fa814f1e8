import { create, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { SessionEventSchema } from '@dsh/gen/events';
import { FollowResponseSchema } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { followFrameEvents, type WireEvent } from '../wire-client.js';

const chunk = (seq: number, timeMs: number) =>
  create(SessionEventSchema, {
    seq,
    time: timestampFromMs(timeMs),
    payload: { case: 'assistantChunk', value: { turn: 1, step: 0 } },
  });
const turnEnd = create(SessionEventSchema, {
  seq: 9,
  payload: { case: 'turnEnd', value: { turn: 1 } },
});
const frame = (value: MessageInitShape<typeof FollowResponseSchema>['frame']): Uint8Array =>
  toBinary(FollowResponseSchema, create(FollowResponseSchema, { frame: value }));

describe('followFrameEvents()', () => {
  it.each<[string, Uint8Array, WireEvent[] | 'opening']>([
    ['an opening', frame({ case: 'opening', value: { firstSeq: 3, lastSeq: 7 } }), 'opening'],
    ['a heartbeat', frame({ case: 'heartbeat', value: { time: timestampFromMs(5) } }), []],
    [
      'an event frame',
      frame({ case: 'event', value: { event: chunk(70_000, 1_765_000_000_123.5) } }),
      [{ seq: 70_000, timeMs: 1_765_000_000_123.5, payload: 'assistantChunk' }],
    ],
    [
      'an events frame, one event without a time',
      frame({
        case: 'events',
        value: {
          events: [{ event: chunk(7, 1_000) }, { event: chunk(8, 2_000) }, { event: turnEnd }],
        },
      }),
      [
        { seq: 7, timeMs: 1_000, payload: 'assistantChunk' },
        { seq: 8, timeMs: 2_000, payload: 'assistantChunk' },
        { seq: 9, timeMs: undefined, payload: 'turnEnd' },
      ],
    ],
  ])('reads %s', (_name, bytes, expected) => {
    expect(followFrameEvents(bytes)).toEqual(expected);
  });
});
