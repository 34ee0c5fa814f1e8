import { createConversation } from '@dsh/card-models';
import { events } from '@dsh/fixtures';
import { mount } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ChangesView from '../../src/components/ChangesView.vue';
import { changedFilesSession } from './changed-files.js';

process.env['TZ'] = 'UTC';
const facts = { cwd: '/home/dev/project', home: '/home/dev' };

function nodes() {
  const result = createConversation().tryApply({
    kind: 'replace',
    events: events(changedFilesSession),
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.snapshot.nodes;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.UTC(2026, 0, 1, 0, 5));
});
afterEach(() => vi.useRealTimers());

describe('ChangesView', () => {
  it('lists the latest changed file first and shows its combined diff and edits by turn', async () => {
    const wrapper = mount(ChangesView, { props: { nodes: nodes(), facts, hasMore: false } });
    const files = wrapper.findAll('[data-testid="change-file"]');
    expect(files.map((f) => f.find('.change-path').text())).toEqual(['src/math.ts', 'README.md']);
    expect(wrapper.get('[data-testid="combined-diff"]').attributes('data-kind')).toBe('net');
    expect(
      wrapper.findAll('[data-testid="file-edit-turn"]').map((t) => t.attributes('data-turn')),
    ).toEqual(['1', '2', '3']);
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot('__snapshots__/changes-view.html');
  });

  it('shows the file clicked and opens an edit’s call', async () => {
    const wrapper = mount(ChangesView, { props: { nodes: nodes(), facts, hasMore: true } });
    await wrapper.findAll('[data-testid="change-file"]')[1]!.trigger('click');
    expect(wrapper.get('.change-title').text()).toContain('README.md');
    expect(wrapper.findAll('[data-testid="file-edit"]')).toHaveLength(1);
    await wrapper.get('[data-action="open-edit"]').trigger('click');
    expect(wrapper.emitted('select')).toEqual([['w2']]);
    expect(wrapper.get('[data-action="changes-older"]').text()).toBe('Include older turns');
  });

  it('says when nothing changed', () => {
    const wrapper = mount(ChangesView, { props: { nodes: [], facts, hasMore: false } });
    expect(wrapper.text()).toContain('No file changed in the loaded window.');
  });
});
