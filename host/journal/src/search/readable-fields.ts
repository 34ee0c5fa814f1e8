import type { LineString } from './line-strings.js';
import type { SearchKindName } from './search-types.js';

const blockText = /^content\.\d+\.text\.text$/;
const reasoningText = /^content\.\d+\.reasoning\.text$/;

/**
 * The kind of a string field a person reads in an event of `type`, or undefined for
 * everything else (ids, signatures, base64 image data, meta JSON, journal headers).
 * Assistant chunks are left out: the assistant message that ends the step holds the same
 * text, so a search does not hit one step many times.
 */
export function readableKind(type: string, path: string): SearchKindName | undefined {
  switch (type) {
    case 'user/message':
    case 'steering/message':
      return blockText.test(path) ? 'prompt' : undefined;
    case 'assistant/message':
      return blockText.test(path) || reasoningText.test(path) ? 'assistant' : undefined;
    case 'tool/call':
    case 'tool/code-dispatch-start':
      return path === 'arguments' ? 'tool_arguments' : undefined;
    case 'tool/result':
    case 'tool/code-dispatch':
      return blockText.test(path) || path === 'error.message' ? 'tool_output' : undefined;
    case 'tool/output':
      return path === 'text' ? 'tool_output' : undefined;
    default:
      return undefined;
  }
}

/** The event types that carry a tool name of their own (`name`). */
export function namesItsTool(type: string): boolean {
  return type === 'tool/call' || type === 'tool/code-dispatch-start';
}

/** The top-level string of `path` among a line's strings. */
export function topString(strings: readonly LineString[], path: string): LineString | undefined {
  return strings.find((s) => s.path === path);
}
