import type { SessionUsage, TurnUsageFacts } from '@dsh/card-models';
import { TurnEndReason } from '@dsh/gen/events';
import { mount } from '@vue/test-utils';
import { computed } from 'vue';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SessionFacts from '../../src/components/SessionFacts.vue';
import TurnFooter from '../../src/components/TurnFooter.vue';
import { sessionUsageKey } from '../../src/components/session-usage.js';

// Exact times are local; the snapshots are taken in UTC.
process.env['TZ'] = 'UTC';
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const tokens = {
  input: 12_000,
  output: 800,
  cacheRead: 40_000,
  cacheWrite: 0,
  reasoning: 200,
  steps: 3,
};
const turn: TurnUsageFacts = {
  turn: 2,
  tokens,
  costUsd: 0.0424,
  startMs: now - 95_000,
  endMs: now - 60_000,
};

function usage(fields: Partial<SessionUsage>): SessionUsage {
  return {
    total: tokens,
    cost: { usd: 0.4249, unpricedSteps: 0, newerSteps: 0 },
    context: { used: 54_000, budget: 200_000 },
    turns: new Map([[2, turn]]),
    ...fields,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(now);
});
afterEach(() => vi.useRealTimers());

describe('SessionFacts', () => {
  it.each<[string, SessionUsage | undefined, boolean]>([
    ['priced, with a known budget', usage({}), false],
    [
      'a lower bound while newer steps are unpriced, no budget known',
      usage({
        cost: { usd: 0.42, unpricedSteps: 1, newerSteps: 2 },
        context: { used: 9_000, budget: 0 },
      }),
      false,
    ],
    ['no price table, a turn working', usage({ cost: undefined }), true],
  ])('draws %s', async (name, facts, running) => {
    const wrapper = mount(SessionFacts, {
      props: {
        usage: facts,
        model: 'claude-sonnet-4',
        running,
        openTurn: running
          ? {
              turn: 3,
              seq: 40,
              time: { seconds: BigInt((now - 12_000) / 1000), nanos: 0 } as never,
            }
          : undefined,
      },
    });
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot(
      `__snapshots__/session-facts.${name.replaceAll(/\W+/g, '-')}.html`,
    );
  });

  it('counts the running turn in seconds, every second', async () => {
    const wrapper = mount(SessionFacts, {
      props: {
        usage: usage({}),
        model: 'demo',
        running: true,
        openTurn: {
          turn: 3,
          seq: 40,
          time: { seconds: BigInt((now - 12_000) / 1000), nanos: 0 } as never,
        },
      },
    });
    expect(wrapper.get('[data-fact="working"]').text()).toBe('turn 3 · 12 s');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(wrapper.get('[data-fact="working"]').text()).toBe('turn 3 · 15 s');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(wrapper.get('[data-fact="working"]').text()).toBe('turn 3 · 1 min 15 s');
    wrapper.unmount();
  });

  it('says why the cost is a lower bound', () => {
    const wrapper = mount(SessionFacts, {
      props: {
        usage: usage({ cost: { usd: 0.42, unpricedSteps: 0, newerSteps: 2 } }),
        model: 'demo',
        running: false,
        openTurn: undefined,
      },
    });
    const cost = wrapper.get('[data-fact="cost"]');
    expect(cost.text()).toBe('≥ $0.42');
    expect(cost.attributes('title')).toContain('2 steps not priced yet');
  });

  it('shows the latest todo list: its counts, and the items on a click', async () => {
    const wrapper = mount(SessionFacts, {
      props: {
        usage: usage({}),
        model: 'demo',
        running: true,
        openTurn: undefined,
        todos: [
          { content: 'Read the parser', status: 'completed' },
          { content: 'Fix the bug', status: 'in_progress' },
          { content: 'Add a test', status: 'pending' },
        ],
      },
    });
    const todos = wrapper.get('[data-fact="todos"]');
    expect(todos.get('summary').text()).toBe('todos 1/3');
    expect(todos.get('summary').attributes('title')).toBe('Working on: Fix the bug');
    await expect(`${todos.html()}\n`).toMatchFileSnapshot('__snapshots__/session-facts.todos.html');
  });

  it('says the totals are coming while the host indexes the session', async () => {
    const wrapper = mount(SessionFacts, {
      props: {
        usage: undefined,
        model: 'demo',
        running: false,
        openTurn: undefined,
        indexing: true,
      },
    });
    expect(wrapper.find('[data-fact="tokens"]').exists()).toBe(false);
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot(
      '__snapshots__/session-facts.indexing.html',
    );
  });

  it('is not drawn for a session with no model and no usage', () => {
    const wrapper = mount(SessionFacts, {
      props: { usage: undefined, model: '', running: false, openTurn: undefined },
    });
    expect(wrapper.find('[data-testid="session-facts"]').exists()).toBe(false);
  });
});

describe('TurnFooter', () => {
  it.each<[string, TurnEndReason, SessionUsage | undefined]>([
    ['completed with usage and cost', TurnEndReason.COMPLETED, usage({})],
    ['cancelled without usage facts', TurnEndReason.CANCELLED, undefined],
  ])('draws a turn %s', async (name, reason, facts) => {
    const wrapper = mount(TurnFooter, {
      props: { turn: 2, reason, endMs: now - 60_000 },
      global: { provide: { [sessionUsageKey as symbol]: computed(() => facts) } },
    });
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot(
      `__snapshots__/turn-footer.${name.replaceAll(/\W+/g, '-')}.html`,
    );
  });
});
