import type { CompactionNode } from '@dsh/card-models';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import CompactionDivider from '../../src/components/CompactionDivider.vue';
import { loadFixture } from '../cards/fixture-blocks.js';

const nodes = loadFixture('compaction').snapshot.nodes.filter(
  (node): node is CompactionNode => node.kind === 'compaction',
);

describe('CompactionDivider', () => {
  it('finds both compactions of the fixture', () => {
    expect(nodes.map((node) => node.seq)).toEqual([29, 39]);
  });

  it.each(nodes.map((node) => [node.seq, node] as const))(
    'draws the compaction at seq %i as a divider with its summary folded',
    async (seq, node) => {
      const wrapper = mount(CompactionDivider, { props: { node } });
      const divider = wrapper.get('[role="separator"]');
      expect(divider.attributes('aria-label')).toContain(
        `${node.tokensBefore.toLocaleString('en-US')} →`,
      );
      expect(wrapper.get('.compaction-tokens').text()).toContain('tokens (budget 6,000)');
      const details = wrapper.get<HTMLDetailsElement>('details.compaction-summary');
      expect(details.element.open).toBe(false);
      expect(details.text()).toContain(node.summary.slice(0, 40));
      await expect(`${wrapper.html()}\n`).toMatchFileSnapshot(
        `__snapshots__/compaction-divider.${seq}.html`,
      );
    },
  );
});
