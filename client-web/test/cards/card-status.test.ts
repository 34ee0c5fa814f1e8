import type { PathFacts, ToolCallBlock } from '@dsh/card-models';
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { computed } from 'vue';
import { cardWindowKey, ToolCard, type CardWindow } from '../../src/cards/index.js';
import { loadFixture, topLevelBlocks } from './fixture-blocks.js';
import { mountCard } from './mount-card.js';

function blockOf(fixture: string, callId: string): { block: ToolCallBlock; facts: PathFacts } {
  const { facts, snapshot } = loadFixture(fixture);
  const block = topLevelBlocks(snapshot).find((b) => b.callId === callId);
  if (!block) throw new Error(`${fixture} has no call ${callId}`);
  return { block, facts };
}

/** Mounts a card the way the conversation does, with the window facts it provides. */
async function mountInWindow(block: ToolCallBlock, facts: PathFacts, window: CardWindow) {
  const wrapper = mount(ToolCard, {
    props: { block, facts, mode: 'conversation' },
    global: { provide: { [cardWindowKey as symbol]: computed(() => window) } },
  });
  await flushPromises();
  return wrapper;
}

describe('ToolCard status', () => {
  it.each<[string, string, string, string]>([
    ['terminal-exit-code', 'call_bash_lint', 'error', 'failed'],
    ['terminal-exit-code', 'call_bash_ls_missing', 'error', 'failed'],
    ['terminal-signal', 'call_bash_killed', 'error', 'killed'],
    ['terminal-timeout', 'call_bash_timeout', 'error', 'timed out'],
    ['terminal-foreground', 'call_bash_test', 'ok', 'done'],
    ['interrupted-turn', 'call_interrupted_open', 'stopped', 'stopped'],
    ['interrupted-turn', 'call_interrupted_settled', 'stopped', 'stopped'],
    ['ask-user-cancelled', 'call_ask_cancelled', 'declined', 'declined'],
    ['approvals', 'call_approval_deny', 'declined', 'denied'],
    ['web-fetch', 'call_web_fetch_404', 'error', 'failed'],
    ['web-fetch', 'call_web_fetch', 'ok', 'done'],
  ])('%s %s: one state, %s "%s", on the card and its header', async (fixture, id, state, label) => {
    const { block, facts } = blockOf(fixture, id);
    for (const mode of ['conversation', 'details'] as const) {
      const wrapper = await mountCard(block, facts, mode);
      expect(wrapper.attributes('data-state')).toBe(state);
      const head = wrapper.get('.dsh-card-head [data-field="state"]');
      expect(head.attributes('data-state')).toBe(state);
      expect(head.text()).toBe(label);
      wrapper.unmount();
    }
  });

  it('draws the error line of a stopped or declined call in its tone, not as a failure', async () => {
    for (const [fixture, id, tone] of [
      ['interrupted-turn', 'call_interrupted_open', 'stopped'],
      ['interrupted-turn', 'call_interrupted_settled', 'stopped'],
      ['approvals', 'call_approval_deny', 'declined'],
    ] as const) {
      const { block, facts } = blockOf(fixture, id);
      const wrapper = await mountCard(block, facts, 'conversation');
      expect(wrapper.get('[data-field="error"]').attributes('data-tone')).toBe(tone);
      wrapper.unmount();
    }
  });
});

describe('QuestionCard', () => {
  it('marks the chosen options once answered and drops the raw answer text', async () => {
    const { block, facts } = blockOf('ask-user-answered', 'call_ask_answered');
    const wrapper = await mountCard(block, facts, 'conversation');
    expect(wrapper.findAll('[data-chosen]').map((li) => li.find('.dsh-q-option').text())).toEqual([
      'pnpm',
      'GitHub Actions',
      'GitLab CI',
    ]);
    expect(wrapper.find('[data-field="answers"]').exists()).toBe(false);
  });

  it('says "Declined" in a neutral pill for a declined question', async () => {
    const { block, facts } = blockOf('ask-user-cancelled', 'call_ask_cancelled');
    const wrapper = await mountCard(block, facts, 'conversation');
    const pill = wrapper.get('[data-field="question-state"]');
    expect(pill.text()).toBe('Declined');
    expect(pill.classes()).not.toContain('dsh-pill-error');
  });

  it('does not repeat a question the pending card below asks; details still show it', async () => {
    const { facts, snapshot } = loadFixture('ask-user-answered');
    const answered = topLevelBlocks(snapshot)[0];
    if (!answered) throw new Error('no question block');
    const waiting: ToolCallBlock = { ...answered, status: 'running', result: undefined };
    const below = { hasMore: false, pendingQuestionCalls: new Set([waiting.callId]) };
    const compact = await mountInWindow(waiting, facts, below);
    expect(compact.find('[data-field="questions"]').exists()).toBe(false);
    expect(compact.get('[data-field="asked-below"]').text()).toBe('The questions are below.');
    expect(compact.html()).toMatchSnapshot();
    const elsewhere = await mountInWindow(waiting, facts, {
      ...below,
      pendingQuestionCalls: new Set(),
    });
    expect(elsewhere.find('[data-field="questions"]').exists()).toBe(true);
    const details = await mountCard(waiting, facts, 'details');
    expect(details.find('[data-field="questions"]').exists()).toBe(true);
  });
});

describe('GenericCard orphan note', () => {
  it.each<[string, CardWindow | undefined, string]>([
    [
      'older events exist',
      { hasMore: true, pendingQuestionCalls: new Set() },
      'load older to find the call',
    ],
    [
      'the whole session is loaded',
      { hasMore: false, pendingQuestionCalls: new Set() },
      'the call is not in this session',
    ],
    ['outside the conversation', undefined, 'Result without its call in the loaded events.'],
  ])('says what is true when %s', async (_, window, text) => {
    const { facts, snapshot } = loadFixture('orphan-result');
    const orphan = topLevelBlocks(snapshot).find((b) => b.call === null);
    if (!orphan) throw new Error('no orphan block');
    const wrapper =
      window === undefined
        ? await mountCard(orphan, facts, 'conversation')
        : await mountInWindow(orphan, facts, window);
    expect(wrapper.get('[data-field="orphan"]').text()).toContain(text);
    expect(wrapper.text()).not.toContain('in this window (load older');
  });
});
