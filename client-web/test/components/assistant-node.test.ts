import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AssistantNode from '../../src/components/AssistantNode.vue';

process.env['TZ'] = 'UTC';
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const facts = { cwd: '/home/dev/project', home: '/home/dev' };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(now);
});
afterEach(() => vi.useRealTimers());

describe('AssistantNode', () => {
  it.each([
    {
      name: 'thinking-with-duration',
      blocks: [
        { kind: 'reasoning', text: 'Weigh the options.', durationMs: 12_400 },
        { kind: 'text', text: 'Use the map.' },
      ],
      want: 'Thought for 12.4 s',
    },
    {
      name: 'thinking-without-duration',
      blocks: [
        { kind: 'reasoning', text: 'Imported.' },
        { kind: 'text', text: 'Done.' },
      ],
      want: 'Reasoning',
    },
  ] as const)('draws $name with the message time', async ({ name, blocks, want }) => {
    const wrapper = mount(AssistantNode, {
      props: { blocks, facts, selectedCallId: undefined, timeMs: now - 5 * 60_000 },
    });
    expect(wrapper.get('.reasoning summary').text()).toContain(want);
    expect(wrapper.get('.assistant-time').text()).toBe('5 min ago');
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot(`__snapshots__/assistant-${name}.html`);
  });

  it('shows no time while streaming', () => {
    const wrapper = mount(AssistantNode, {
      props: {
        blocks: [{ kind: 'text', text: 'Hel' }],
        facts,
        selectedCallId: undefined,
        streaming: true,
        timeMs: now,
      },
    });
    expect(wrapper.find('.assistant-time').exists()).toBe(false);
  });
});
