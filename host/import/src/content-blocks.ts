import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { isRecord, stringOf } from './json-fields.js';

/** A text content block. */
export function textBlock(text: string): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'text', value: { text } } });
}

/**
 * Converts Claude Code message or tool-result content (a string, or text and image
 * blocks) into dsh content blocks. A block of another kind is kept as its JSON text, so
 * nothing the model saw is lost.
 */
export function contentBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [textBlock(content)];
  if (!Array.isArray(content))
    return content === undefined ? [] : [textBlock(JSON.stringify(content))];
  return content.map((block: unknown) => {
    if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') {
      return textBlock(block.text);
    }
    const image = isRecord(block) && block.type === 'image' ? imageBlock(block.source) : undefined;
    return image ?? textBlock(JSON.stringify(block));
  });
}

/** The text of content blocks joined by newlines (images left out). */
export function contentText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.block.case === 'text' ? [b.block.value.text] : [])).join('\n');
}

function imageBlock(source: unknown): ContentBlock | undefined {
  if (!isRecord(source) || source.type !== 'base64') return undefined;
  const data = stringOf(source, 'data');
  const mediaType = stringOf(source, 'media_type');
  if (data === undefined || mediaType === undefined) return undefined;
  return create(ContentBlockSchema, {
    block: { case: 'image', value: { mediaType, data: Buffer.from(data, 'base64') } },
  });
}
