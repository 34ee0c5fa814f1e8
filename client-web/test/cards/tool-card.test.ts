import type { PathFacts, ToolCallBlock } from '@dsh/card-models';
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { createWebRegistry, rendererRegistryKey, ToolCard } from '../../src/cards/index.js';
import { loadFixture, topLevelBlocks } from './fixture-blocks.js';
import { mountCard } from './mount-card.js';

function blockOf(fixture: string, callId: string): { block: ToolCallBlock; facts: PathFacts } {
  const { facts, snapshot } = loadFixture(fixture);
  const block = topLevelBlocks(snapshot).find((b) => b.callId === callId);
  if (!block) throw new Error(`${fixture} has no call ${callId}`);
  return { block, facts };
}

function firstBlockOf(fixture: string): { block: ToolCallBlock; facts: PathFacts } {
  const { facts, snapshot } = loadFixture(fixture);
  const [block] = topLevelBlocks(snapshot);
  if (!block) throw new Error(`${fixture} has no tool block`);
  return { block, facts };
}

const Throwing = defineComponent({
  name: 'ThrowingRenderer',
  setup() {
    return () => {
      throw new Error('renderer exploded');
    };
  },
});

describe('createWebRegistry()', () => {
  const tools: [string, string][] = [
    ['bash', 'TerminalCard'],
    ['pwsh', 'TerminalCard'],
    ['terminal_send', 'TerminalCard'],
    ['write', 'DiffCard'],
    ['edit', 'DiffCard'],
    ['str_replace_editor', 'DiffCard'],
    ['read', 'ReadCard'],
    ['grep', 'SearchCard'],
    ['glob', 'SearchCard'],
    ['web_search', 'WebCard'],
    ['web_fetch', 'WebCard'],
    ['todo_write', 'TodoCard'],
    ['ask_user', 'QuestionCard'],
    ['skill', 'SkillCard'],
    ['run_code', 'CodeCard'],
  ];

  it.each(tools)('maps %s to %s', (tool, component) => {
    const registry = createWebRegistry();
    expect(registry.has(tool)).toBe(true);
    expect((registry.resolve(tool) as { __name?: string }).__name).toBe(component);
  });

  it.each(['my_custom_tool', ''])('gives %j the Generic renderer', (tool) => {
    const registry = createWebRegistry();
    expect(registry.has(tool)).toBe(false);
    expect((registry.resolve(tool) as { __name?: string }).__name).toBe('GenericCard');
  });

  it('throws when a tool is registered twice', () => {
    const registry = createWebRegistry();
    expect(() => registry.register('bash', Throwing)).toThrow(/already registered/);
  });
});

describe('ToolCard', () => {
  it('isolates a renderer that throws: its card shows the error, siblings render', async () => {
    const registry = createWebRegistry();
    registry.register('my_custom_tool', Throwing);
    const calls = [
      blockOf('terminal-foreground', 'call_bash_test'),
      firstBlockOf('generic-tool'),
      firstBlockOf('read-file'),
    ];
    const custom: ToolCallBlock = { ...calls[1]!.block, name: 'my_custom_tool' };
    const List = defineComponent({
      setup() {
        return () =>
          h('div', [
            h(ToolCard, { block: calls[0]!.block, facts: calls[0]!.facts, mode: 'conversation' }),
            h(ToolCard, { block: custom, facts: calls[1]!.facts, mode: 'conversation' }),
            h(ToolCard, { block: calls[2]!.block, facts: calls[2]!.facts, mode: 'conversation' }),
          ]);
      },
    });
    const wrapper = mount(List, {
      global: { provide: { [rendererRegistryKey as symbol]: registry } },
    });
    await flushPromises();
    const cards = wrapper.findAll('article.dsh-card');
    expect(cards).toHaveLength(3);
    expect(cards[1]!.find('[data-field="render-error"]').text()).toContain('renderer exploded');
    expect(cards[1]!.find('[data-field="title"]').text()).toBe(custom.name);
    expect(cards[0]!.find('[data-field="render-error"]').exists()).toBe(false);
    expect(cards[0]!.find('[data-field="command"]').text()).toContain('npm test');
    expect(cards[2]!.find('[data-field="render-error"]').exists()).toBe(false);
    expect(cards[2]!.find('[data-field="path"]').exists()).toBe(true);
  });

  it('isolates a throwing sub-call renderer inside a code card', async () => {
    const { block, facts } = firstBlockOf('run-code');
    const [first, ...rest] = block.subCalls;
    if (!first) throw new Error('run-code has no sub-calls');
    const registry = createWebRegistry();
    registry.register('my_custom_tool', Throwing);
    const broken: ToolCallBlock = {
      ...block,
      subCalls: [{ ...first, name: 'my_custom_tool' }, ...rest],
    };
    const wrapper = mount(ToolCard, {
      props: { block: broken, facts, mode: 'conversation' },
      global: { provide: { [rendererRegistryKey as symbol]: registry } },
    });
    await flushPromises();
    const nested = [...wrapper.find('.dsh-subcalls').element.children];
    expect(nested).toHaveLength(block.subCalls.length);
    expect(nested[0]!.querySelector('[data-field="render-error"]')?.textContent).toContain(
      'renderer exploded',
    );
    expect(wrapper.findAll('[data-field="render-error"]')).toHaveLength(1);
    expect(wrapper.find('.dsh-code-card').exists()).toBe(true);
  });

  it('emits select with the call id when its row is clicked', async () => {
    const { block, facts } = blockOf('terminal-foreground', 'call_bash_test');
    const wrapper = await mountCard(block, facts, 'conversation');
    await wrapper.find('.dsh-card-main').trigger('click');
    expect(wrapper.emitted('select')).toEqual([['call_bash_test']]);
  });

  it('marks the selected call', async () => {
    const { block, facts } = blockOf('terminal-foreground', 'call_bash_test');
    const wrapper = await mountCard(block, facts, 'conversation', 'call_bash_test');
    expect(wrapper.classes()).toContain('dsh-card-selected');
    expect(wrapper.find('.dsh-card-main').attributes('aria-pressed')).toBe('true');
  });

  it('expands limited output with the toggle, the more button and ArrowRight', async () => {
    const { block, facts } = blockOf('terminal-foreground', 'call_bash_test');
    const lineCount = async (
      action: (w: Awaited<ReturnType<typeof mountCard>>) => Promise<void>,
    ) => {
      const wrapper = await mountCard(block, facts, 'conversation');
      const before = wrapper.findAll('.dsh-term-line').length;
      await action(wrapper);
      return [before, wrapper.findAll('.dsh-term-line').length];
    };
    const full = (await mountCard(block, facts, 'details')).findAll('.dsh-term-line').length;
    for (const action of [
      (w: Awaited<ReturnType<typeof mountCard>>) => w.find('.dsh-card-toggle').trigger('click'),
      (w: Awaited<ReturnType<typeof mountCard>>) => w.find('.dsh-more').trigger('click'),
      (w: Awaited<ReturnType<typeof mountCard>>) =>
        w.find('.dsh-card-main').trigger('keydown', { key: 'ArrowRight' }),
    ]) {
      const [before, after] = await lineCount(action);
      expect(before).toBeLessThan(full);
      expect(after).toBe(full);
    }
  });

  it('emits open-path with the absolute path when a diff path is clicked', async () => {
    const { facts, snapshot } = loadFixture('diff-edit');
    const block = topLevelBlocks(snapshot).find((b) => b.name === 'edit' && b.status === 'ok');
    if (!block) throw new Error('diff-edit has no settled edit');
    const wrapper = await mountCard(block, facts, 'conversation');
    await wrapper.find('[data-field="path"]').trigger('click');
    const [[path]] = wrapper.emitted('open-path') as [[string]];
    expect(path.startsWith('/')).toBe(true);
  });

  it('links only http and https web sources', async () => {
    const { facts, snapshot } = loadFixture('web-search');
    const [block] = topLevelBlocks(snapshot);
    if (!block) throw new Error('web-search has no tool block');
    const wrapper = await mountCard(block, facts, 'details');
    const links = wrapper.findAll('a');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.attributes('href')).toMatch(/^https?:\/\//);
      expect(link.attributes('rel')).toBe('noopener noreferrer');
      expect(link.attributes('target')).toBe('_blank');
    }
  });

  it('links the session a sub-agent call ran in, by its hash route', async () => {
    const { block, facts } = firstBlockOf('generic-tool');
    if (!block.result) throw new Error('generic-tool has no settled call');
    const child: ToolCallBlock = {
      ...block,
      result: { ...block.result, metaJson: JSON.stringify({ childSessionId: 'codex-a b' }) },
    };
    const plain = await mountCard(block, facts, 'conversation');
    expect(plain.find('[data-field="session-link"]').exists()).toBe(false);
    const linked = await mountCard(child, facts, 'conversation');
    const link = linked.find('[data-field="session-link"]');
    expect(link.attributes('href')).toBe('#/s/codex-a%20b');
    expect(link.text()).toBe("Open the sub-agent's session →");
  });
});
