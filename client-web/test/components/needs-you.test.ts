import { create } from '@bufbuild/protobuf';
import type { SessionRow } from '@dsh/client-live';
import { SessionSummarySchema, type SessionSummary } from '@dsh/gen/service';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import SessionList from '../../src/components/SessionList.vue';
import { waitingCount } from '../../src/format/waiting-count.js';

function summary(fields: Record<string, unknown>): SessionSummary {
  return create(SessionSummarySchema, { id: 's1', ...fields });
}

describe('waitingCount()', () => {
  it.each<[string, SessionSummary, number | undefined, number]>([
    ['the open session: its window’s count', summary({ running: true, pending: 0 }), 2, 2],
    [
      'a background session: the host’s count',
      summary({ running: true, pending: 1 }),
      undefined,
      1,
    ],
    ['a running session waiting on nothing', summary({ running: true }), undefined, 0],
    ['a stopped session waits on nothing', summary({ running: false, pending: 3 }), 3, 0],
  ])('%s', (_, session, open, expected) => {
    expect(waitingCount(session, open)).toBe(expected);
  });
});

describe('SessionList needs-you mark', () => {
  it('marks a waiting session instead of its time', async () => {
    const row = (id: string, title: string): SessionRow => ({
      summary: create(SessionSummarySchema, { id, title, cwd: '/home/dev/p', running: true }),
      depth: 0,
      orphan: false,
    });
    const wrapper = mount(SessionList, {
      props: {
        rows: [row('a', 'Waiting'), row('b', 'Busy')],
        loaded: true,
        failing: false,
        selectedId: 'b',
        canCreate: false,
        waiting: new Map([['a', 2]]),
      },
    });
    const marks = wrapper.findAll('[data-testid="needs-you"]');
    expect(
      marks.map((mark) =>
        mark.element.closest('[data-session-id]')?.getAttribute('data-session-id'),
      ),
    ).toEqual(['a']);
    await expect(`${wrapper.get('[data-session-id="a"]').html()}\n`).toMatchFileSnapshot(
      '__snapshots__/session-row-needs-you.html',
    );
  });
});
