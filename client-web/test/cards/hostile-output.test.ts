import { describe, expect, it } from 'vitest';
import { activeContent } from './active-content.js';
import { loadFixture, topLevelBlocks, withSubCalls } from './fixture-blocks.js';
import { mountCard } from './mount-card.js';

/**
 * The serialised HTML with attribute values and text blanked, so only markup is left to
 * inspect (hostile text such as `<img onerror=…>` is shown, escaped, as text on purpose).
 */
function markupOnly(html: string): string {
  return html.replace(/="[^"]*"/g, '=""').replace(/>[^<]*</g, '><');
}

describe('ToolCard (hostile input)', () => {
  // Every other fixture is checked the same way by its snapshot test.
  const names = ['hostile-output', 'web-search', 'web-fetch'];

  it.each(names)('%s renders no script, handler or non-http link', async (name) => {
    const { facts, snapshot } = loadFixture(name);
    for (const block of withSubCalls(topLevelBlocks(snapshot))) {
      for (const mode of ['conversation', 'details'] as const) {
        const wrapper = await mountCard(block, facts, mode);
        expect(activeContent(wrapper.element), `${block.callId} ${mode}`).toEqual([]);
        const markup = markupOnly(wrapper.html());
        expect(markup).not.toMatch(/<script/i);
        expect(markup).not.toMatch(/\son[a-z]+=/i);
        wrapper.unmount();
      }
    }
  });

  it('keeps hostile text visible as text', async () => {
    const { facts, snapshot } = loadFixture('hostile-output');
    const [bash] = topLevelBlocks(snapshot);
    if (!bash) throw new Error('hostile-output has no tool block');
    const wrapper = await mountCard(bash, facts, 'details');
    expect(wrapper.text()).toContain('<script>alert("desc")</script>');
    // Output before the clear and the reset is still there, as text.
    expect(wrapper.text()).toContain('<img src=x onerror="alert(1)">');
    expect(wrapper.text()).toContain('screen cleared, cursor home');
    expect(wrapper.findAll('a')).toHaveLength(0);
  });
});
