import type { ToolCallBlock } from '../conversation/types.js';
import { parseJsonObject } from './card-json.js';
import type { SkillCard } from './card-types.js';

/**
 * The skill row of a `skill` call: the skill's name from the arguments and the call's
 * state. A missing or empty name, malformed arguments or a missing call head give
 * `undefined` (the Generic card).
 */
export function skillCard(block: ToolCallBlock): SkillCard | undefined {
  if (block.call === null || block.name !== 'skill') return undefined;
  const name = parseJsonObject(block.argsRaw)?.name;
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  return { kind: 'skill', name, state: block.status };
}
