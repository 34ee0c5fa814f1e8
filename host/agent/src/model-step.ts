import { create } from '@bufbuild/protobuf';
import { BlockType, ContentBlockSchema, type ContentBlock, type Usage } from '@dsh/gen/content';
import type { ModelProvider, ProviderRequest } from '@dsh/providers';
import type { EventRecorder } from './event-recorder.js';
import { payloads } from './payloads.js';

/** What one model step added up to. */
export interface ModelStepResult {
  readonly content: ContentBlock[];
  readonly usage: Usage | undefined;
  readonly finishReason: string;
  readonly toolCalls: readonly { id: string; name: string; arguments: string }[];
}

type Draft =
  | { kind: 'text' | 'reasoning'; text: string; final?: ContentBlock }
  | { kind: 'toolCall'; id: string; name: string; args: string; final?: ContentBlock };

/**
 * Streams one model step, recording every chunk as `assistant/chunk` (batched per tick)
 * and assembling the final content blocks. Throws what the provider throws; chunks
 * recorded before a failure stay in the journal.
 */
export async function runModelStep(
  provider: ModelProvider,
  request: ProviderRequest,
  at: { turn: number; step: number },
  recorder: EventRecorder,
): Promise<ModelStepResult> {
  const drafts: Draft[] = [];
  let usage: Usage | undefined;
  let finishReason = '';
  for await (const chunk of provider.stream(request)) {
    if (request.signal.aborted) break;
    recorder.recordSoon(payloads.chunk(at.turn, at.step, chunk));
    switch (chunk.case) {
      case 'blockStart':
        drafts[chunk.value.index] =
          chunk.value.blockType === BlockType.TOOL_CALL
            ? { kind: 'toolCall', id: '', name: '', args: '' }
            : {
                kind: chunk.value.blockType === BlockType.REASONING ? 'reasoning' : 'text',
                text: '',
              };
        break;
      case 'textDelta':
      case 'reasoningDelta': {
        const draft = (drafts[chunk.value.index] ??= {
          kind: chunk.case === 'textDelta' ? 'text' : 'reasoning',
          text: '',
        });
        if (draft.kind !== 'toolCall') draft.text += chunk.value.text;
        break;
      }
      case 'toolCallDelta': {
        const draft = (drafts[chunk.value.index] ??= {
          kind: 'toolCall',
          id: '',
          name: '',
          args: '',
        });
        if (draft.kind === 'toolCall') {
          if (chunk.value.id !== '') draft.id = chunk.value.id;
          if (chunk.value.name !== undefined && chunk.value.name !== '')
            draft.name = chunk.value.name;
          draft.args += chunk.value.argumentsDelta;
        }
        break;
      }
      case 'blockEnd': {
        const draft = drafts[chunk.value.index];
        if (draft && chunk.value.block) draft.final = chunk.value.block;
        break;
      }
      case 'usage':
        usage = chunk.value;
        break;
      case 'finish':
        finishReason = chunk.value.reason;
        break;
      default: {
        const unknownChunk: never = chunk;
        throw new Error(`unhandled stream chunk ${JSON.stringify(unknownChunk)}`);
      }
    }
  }
  await recorder.flush();
  const content = drafts.filter((d) => d !== undefined).map(finalBlock);
  const toolCalls = content.flatMap((block) =>
    block.block.case === 'toolCall'
      ? [
          {
            id: block.block.value.id,
            name: block.block.value.name,
            arguments: block.block.value.arguments,
          },
        ]
      : [],
  );
  return { content, usage, finishReason, toolCalls };
}

function finalBlock(draft: Draft): ContentBlock {
  if (draft.final) return draft.final;
  if (draft.kind === 'toolCall') {
    return create(ContentBlockSchema, {
      block: { case: 'toolCall', value: { id: draft.id, name: draft.name, arguments: draft.args } },
    });
  }
  return create(ContentBlockSchema, { block: { case: draft.kind, value: { text: draft.text } } });
}
