import { create } from '@bufbuild/protobuf';
import { BlockType, ContentBlockSchema } from '@dsh/gen/content';
import type { ModelProvider, ProviderChunk } from '@dsh/providers';

/** The chunks of one model step: a text block, then the given tool calls. */
export function step(text: string, calls: { id: string; name: string }[] = []): ProviderChunk[] {
  const chunks: ProviderChunk[] = [
    {
      case: 'blockStart',
      value: { $typeName: 'dsh.session.v1.BlockStart', index: 0, blockType: BlockType.TEXT },
    },
    { case: 'textDelta', value: { $typeName: 'dsh.session.v1.TextDelta', index: 0, text } },
  ];
  calls.forEach((call, i) => {
    const index = i + 1;
    const block = create(ContentBlockSchema, {
      block: { case: 'toolCall', value: { id: call.id, name: call.name, arguments: '{}' } },
    });
    chunks.push(
      {
        case: 'blockStart',
        value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType: BlockType.TOOL_CALL },
      },
      { case: 'blockEnd', value: { $typeName: 'dsh.session.v1.BlockEnd', index, block } },
    );
  });
  chunks.push({
    case: 'finish',
    value: { $typeName: 'dsh.session.v1.Finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' },
  });
  return chunks;
}

/** A model that plays `steps` in order; `beforeChunk(step, i)` runs before chunk i of a step. */
export function scripted(
  steps: ProviderChunk[][],
  beforeChunk: (step: number, chunk: number) => Promise<void> = async () => {},
): ModelProvider {
  let next = 0;
  return {
    model: 'scripted',
    async *stream() {
      const at = next++;
      for (const [i, chunk] of (steps[at] ?? step('done')).entries()) {
        await beforeChunk(at, i);
        yield chunk;
      }
    },
  };
}
