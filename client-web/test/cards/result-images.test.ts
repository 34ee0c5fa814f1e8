import { create } from '@bufbuild/protobuf';
import type { ToolCallBlock } from '@dsh/card-models';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { describe, expect, it } from 'vitest';
import { loadFixture, topLevelBlocks } from './fixture-blocks.js';
import { mountCard } from './mount-card.js';

const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const svgBytes = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');

const text = (value: string): ContentBlock =>
  create(ContentBlockSchema, { block: { case: 'text', value: { text: value } } });
const image = (mediaType: string, data: Uint8Array): ContentBlock =>
  create(ContentBlockSchema, { block: { case: 'image', value: { mediaType, data } } });

/** The read fixture's first call with its result's content replaced. */
function readWith(content: ContentBlock[]) {
  const { facts, snapshot } = loadFixture('read-file');
  const [block] = topLevelBlocks(snapshot);
  if (block?.result === undefined) throw new Error('read-file has no settled call');
  const changed: ToolCallBlock = { ...block, result: { ...block.result, content } };
  return { block: changed, facts };
}

describe('ToolCard result images', () => {
  it.each<[string, ContentBlock[], number, string[], string]>([
    ['text only: nothing extra', [text('1\tline')], 0, [], ''],
    [
      'a png and an svg',
      [text('screenshot'), image('image/png', pngBytes), image('image/svg+xml', svgBytes)],
      1,
      ['[image/svg+xml image not shown]'],
      '',
    ],
    [
      'eight pngs: six shown',
      Array.from({ length: 8 }, () => image('image/png', pngBytes)),
      6,
      [],
      '+2 more images (in the raw events)',
    ],
  ])('%s', async (_, content, shown, refused, more) => {
    const { block, facts } = readWith(content);
    const wrapper = await mountCard(block, facts, 'conversation');
    expect(
      wrapper.findAll('[data-field="result-images"] [data-testid="inline-image"]'),
    ).toHaveLength(shown);
    expect(wrapper.findAll('[data-testid="image-refused"]').map((el) => el.text())).toEqual(
      refused,
    );
    expect(
      wrapper.find('.dsh-result-images-more').exists()
        ? wrapper.get('.dsh-result-images-more').text()
        : '',
    ).toBe(more);
  });

  it('renders the images strip', async () => {
    const { block, facts } = readWith([
      image('image/png', pngBytes),
      image('image/svg+xml', svgBytes),
    ]);
    const wrapper = await mountCard(block, facts, 'conversation');
    const html = wrapper
      .get('[data-field="result-images"]')
      .html()
      .replace(/blob:[^"]+/g, 'blob:URL');
    await expect(`${html}\n`).toMatchFileSnapshot('__snapshots__/result-images.html');
  });
});
