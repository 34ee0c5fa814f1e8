import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ContentText from '../../src/components/ContentText.vue';
import { imageVerdict, maxInlineImageBytes } from '../../src/format/image-source.js';

const pngHead = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('imageVerdict()', () => {
  it.each<[string, string, Uint8Array, ReturnType<typeof imageVerdict>]>([
    ['a png', 'image/png', bytes(...pngHead, 0), { ok: true, type: 'image/png' }],
    [
      'a jpeg, any case',
      'IMAGE/JPEG',
      bytes(0xff, 0xd8, 0xff, 0xe0),
      { ok: true, type: 'image/jpeg' },
    ],
    ['a gif', 'image/gif', text('GIF89a'), { ok: true, type: 'image/gif' }],
    ['a webp', 'image/webp', text('RIFF\0\0\0\0WEBPVP8 '), { ok: true, type: 'image/webp' }],
    [
      'svg, never',
      'image/svg+xml',
      text('<svg/>'),
      { ok: false, reason: 'image/svg+xml image not shown' },
    ],
    [
      'html claiming png',
      'image/png',
      text('<html>'),
      { ok: false, reason: 'not a valid png image' },
    ],
    ['no type', '', bytes(...pngHead), { ok: false, reason: 'untyped image not shown' }],
    [
      'past the size cap',
      'image/png',
      new Uint8Array(maxInlineImageBytes + 1),
      { ok: false, reason: 'image too large to show (5.0 MB)' },
    ],
  ])('%s', (_, type, data, expected) => expect(imageVerdict(type, data)).toEqual(expected));
});

describe('ContentText', () => {
  it('draws text, an inline image and a refused one', async () => {
    const block = (value: MessageInitShape<typeof ContentBlockSchema>['block']) =>
      create(ContentBlockSchema, { block: value });
    const wrapper = mount(ContentText, {
      props: {
        content: [
          block({ case: 'text', value: { text: 'Look:' } }),
          block({ case: 'image', value: { mediaType: 'image/png', data: bytes(...pngHead, 1) } }),
          block({ case: 'image', value: { mediaType: 'image/svg+xml', data: text('<svg/>') } }),
        ],
      },
    });
    expect(wrapper.get('[data-testid="inline-image"]').attributes('src')).toMatch(/^blob:/);
    const html = wrapper.html().replaceAll(/blob:[^"]+/g, 'blob:URL');
    await expect(`${html}\n`).toMatchFileSnapshot('__snapshots__/content-text-images.html');
  });
});
