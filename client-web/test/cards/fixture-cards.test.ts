import { describe, expect, it } from 'vitest';
import { activeContent } from './active-content.js';
import {
  fixtureNames,
  loadFixture,
  sampleBlocks,
  topLevelBlocks,
  withSubCalls,
} from './fixture-blocks.js';
import { mountCard, ownFields } from './mount-card.js';

const names = fixtureNames();

describe('ToolCard (fixture journals)', () => {
  it('finds the fixture journals', () => {
    expect(names.length).toBeGreaterThan(20);
  });

  it.each(names)(
    'renders every card of %s',
    async (name) => {
      const { facts, snapshot } = loadFixture(name);
      const all = topLevelBlocks(snapshot);
      const blocks = sampleBlocks(all);
      const parts: string[] = [
        `<!-- ${name}: ${blocks.length} of ${all.length} top-level tool blocks -->`,
      ];
      for (const block of blocks) {
        const wrapper = await mountCard(block, facts, 'conversation');
        expect(activeContent(wrapper.element), block.callId).toEqual([]);
        parts.push(
          `<!-- ${block.callId} (${block.name || 'orphan'}): conversation -->`,
          wrapper.html(),
        );
        wrapper.unmount();
      }
      for (const block of withSubCalls(blocks)) {
        const wrapper = await mountCard(block, facts, 'details');
        expect(activeContent(wrapper.element), block.callId).toEqual([]);
        parts.push(`<!-- ${block.callId} (${block.name || 'orphan'}): details -->`, wrapper.html());
        wrapper.unmount();
      }
      await expect(`${parts.join('\n')}\n`).toMatchFileSnapshot(`__snapshots__/${name}.html`);
    },
    30_000,
  ); // A snapshot, not a timing test: the long-paging fixture mounts many cards.
});

/** Fields a conversation card limits (or offers to expand) and details show in full. */
const limitedFields = new Set(['lines', 'rows', 'output', 'program', 'sources', 'hidden']);

describe('ToolCard (conversation and details)', () => {
  const cases = names.flatMap((name) => {
    const { facts, snapshot } = loadFixture(name);
    return withSubCalls(sampleBlocks(topLevelBlocks(snapshot))).map(
      (block) => [`${name} ${block.callId}`, block, facts] as const,
    );
  });

  it.each(cases)('draws the same card fields for %s', async (_label, block, facts) => {
    const conversation = await mountCard(block, facts, 'conversation');
    const details = await mountCard(block, facts, 'details');
    const inConversation = ownFields(conversation.element);
    const inDetails = ownFields(details.element);
    for (const [field, text] of inConversation) {
      if (field === 'hidden') continue;
      expect(inDetails.has(field), `details lack "${field}"`).toBe(true);
      if (!limitedFields.has(field)) expect(inDetails.get(field), field).toBe(text);
    }
    expect(inConversation.get('title')).toBeTruthy();
    expect(conversation.find('[data-field="render-error"]').exists()).toBe(false);
    expect(details.find('[data-field="render-error"]').exists()).toBe(false);
    conversation.unmount();
    details.unmount();
  });
});
