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
    ['a running session with derived items', summary({ running: true }), 2, 2],
    ['a running session nothing was derived for', summary({ running: true }), undefined, 0],
    ['a stopped session waits on nothing', summary({ running: false }), 3, 0],
    [
      'the host’s count wins once summaries carry it',
      Object.assign(summary({ running: true }), { pendingCount: 1 }),
      4,
      1,
    ],
  ])('%s', (_, session, derived, expected) => {
    expect(waitingCount(session, derived)).toBe(expected);
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
