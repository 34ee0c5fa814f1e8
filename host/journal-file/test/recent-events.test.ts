import { create } from '@bufbuild/protobuf';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { RecentEvents } from '../src/recent-events.js';

const event = (seq: number): SessionEvent => create(SessionEventSchema, { seq });
const events = (from: number, to: number): SessionEvent[] =>
  Array.from({ length: to - from }, (_, i) => event(from + i));
const seqs = (list: readonly SessionEvent[] | undefined) => list?.map((e) => e.seq);

describe('RecentEvents', () => {
  it.each([
    {
      name: 'keeps what fits both bounds',
      limits: { events: 10, bytes: 1_000 },
      pushes: [[0, 5]],
      slice: [1, 4],
      want: [1, 2, 3],
    },
    {
      name: 'drops the oldest past the event bound',
      limits: { events: 4, bytes: 1_000 },
      pushes: [
        [0, 3],
        [3, 6],
      ],
      slice: [2, 6],
      want: [2, 3, 4, 5],
    },
    {
      name: 'a dropped event is not served',
      limits: { events: 4, bytes: 1_000 },
      pushes: [
        [0, 3],
        [3, 6],
      ],
      slice: [1, 6],
      want: undefined,
    },
    {
      name: 'drops the oldest past the byte bound (100 bytes each)',
      limits: { events: 100, bytes: 250 },
      pushes: [[0, 5]],
      slice: [3, 5],
      want: [3, 4],
    },
    {
      name: 'an event over the byte bound is not kept',
      limits: { events: 100, bytes: 50 },
      pushes: [[0, 1]],
      slice: [0, 1],
      want: undefined,
    },
    {
      name: 'a gap starts over at the new events',
      limits: { events: 10, bytes: 1_000 },
      pushes: [
        [0, 3],
        [5, 7],
      ],
      slice: [5, 7],
      want: [5, 6],
    },
    {
      name: 'nothing before a gap is served',
      limits: { events: 10, bytes: 1_000 },
      pushes: [
        [0, 3],
        [5, 7],
      ],
      slice: [2, 6],
      want: undefined,
    },
    {
      name: 'a range past the end is not served',
      limits: { events: 10, bytes: 1_000 },
      pushes: [[0, 3]],
      slice: [1, 4],
      want: undefined,
    },
    {
      name: 'an empty range is not served',
      limits: { events: 10, bytes: 1_000 },
      pushes: [[0, 3]],
      slice: [1, 1],
      want: undefined,
    },
  ])('$name', ({ limits, pushes, slice, want }) => {
    const recent = new RecentEvents(limits);
    recent.clear(pushes[0]![0]!);
    for (const [from, to] of pushes) {
      recent.push(events(from!, to!), Array<number>(to! - from!).fill(100));
    }
    expect(seqs(recent.slice(slice[0]!, slice[1]!))).toEqual(want);
  });

  it('serves the objects it was given', () => {
    const recent = new RecentEvents({ events: 10, bytes: 1_000 });
    const pushed = events(0, 3);
    recent.push(pushed, [1, 1, 1]);
    expect(recent.slice(0, 3)![1]).toBe(pushed[1]);
  });
});
