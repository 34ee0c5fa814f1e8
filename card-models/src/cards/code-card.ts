import type { ToolCallBlock } from '../conversation/types.js';
import { parseJsonObject } from './card-json.js';
import type { CodeCard } from './card-types.js';

/**
 * The body of a `run_code` row: the description (its summary) and the program text,
 * shown monospace when expanded. The card's sub-calls are derived by `deriveCard`.
 * Missing `code` or `description`, malformed arguments or a missing call head give
 * `undefined` (the Generic card, which still lists the sub-calls).
 */
export function codeCard(block: ToolCallBlock): CodeCard | undefined {
  if (block.call === null || block.name !== 'run_code') return undefined;
  const args = parseJsonObject(block.argsRaw);
  const code = args?.code;
  const description = args?.description;
  if (typeof code !== 'string' || typeof description !== 'string') return undefined;
  return { kind: 'code', description, code };
}
