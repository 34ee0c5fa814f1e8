import { create } from '@bufbuild/protobuf';
import { ToolErrorSchema } from '@dsh/gen/events';
import type { ToolCallBlock } from '../../src/conversation/types.js';
import { text, toolBlock } from './tool-block.js';

/** A settled block whose result has the given content and a structured error with `code`. */
export function failed(
  name: string,
  args: unknown,
  code: string,
  content = `failed: ${code}`,
  message = `Failed (${code})`,
): ToolCallBlock {
  const block = toolBlock(name, args, { result: { content, isError: true } });
  return {
    ...block,
    status: code === 'interrupted' ? 'stopped' : 'error',
    result: block.result && {
      ...block.result,
      error: create(ToolErrorSchema, { name: 'ToolError', code, message }),
    },
  };
}

/** A successful settled block with the given text content. */
export function succeeded(name: string, args: unknown, content: string): ToolCallBlock {
  return toolBlock(name, args, { result: { content: [text(content)] } });
}

/** An error result whose structured error is absent (only `isError` and content). */
export function failedWithoutError(name: string, args: unknown, content: string): ToolCallBlock {
  const block = toolBlock(name, args, { result: { content, isError: true } });
  return { ...block, result: block.result && { ...block.result, error: undefined } };
}

/** The block with code-dispatch children. */
export function withSubCalls(block: ToolCallBlock, subCalls: ToolCallBlock[]): ToolCallBlock {
  return {
    ...block,
    subCalls: subCalls.map((sub, i) => ({
      ...sub,
      callId: `${block.callId}.${i}`,
      parentCallId: block.callId,
    })),
  };
}
