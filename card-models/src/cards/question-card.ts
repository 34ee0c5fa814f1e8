import { errorCodes } from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { isObject, parseJsonObject } from './card-json.js';
import type { QuestionCard, QuestionItem } from './card-types.js';
import { flattenContent } from './generic-row.js';

type Option = QuestionItem['options'][number];

function option(value: unknown): Option | undefined {
  if (!isObject(value) || typeof value.label !== 'string') return undefined;
  const description = value.description;
  if (description !== undefined && typeof description !== 'string') return undefined;
  return { label: value.label, description };
}

function questionItem(value: unknown): QuestionItem | undefined {
  if (!isObject(value) || typeof value.question !== 'string') return undefined;
  const { header, options, multiSelect } = value;
  if (header !== undefined && typeof header !== 'string') return undefined;
  if (multiSelect !== undefined && typeof multiSelect !== 'boolean') return undefined;
  if (options !== undefined && !Array.isArray(options)) return undefined;
  const parsed: Option[] = [];
  for (const raw of options ?? []) {
    const item = option(raw);
    if (!item) return undefined;
    parsed.push(item);
  }
  return { question: value.question, header, options: parsed, multiSelect: multiSelect === true };
}

function questionState(block: ToolCallBlock): QuestionCard['state'] | undefined {
  if (block.status === 'running') return 'waiting';
  if (block.status === 'stopped') return 'interrupted';
  if (block.status === 'ok') return 'answered';
  const code = block.result?.error?.code;
  if (code === errorCodes.cancelled) return 'cancelled';
  if (code === errorCodes.interrupted) return 'interrupted';
  return undefined;
}

/**
 * The question row of an `ask_user` call: the questions from the arguments and the
 * state (waiting, answered with the result text, cancelled or interrupted from the
 * structured error). Other errors and malformed questions give `undefined` (Generic).
 */
export function questionCard(block: ToolCallBlock): QuestionCard | undefined {
  if (block.call === null || block.name !== 'ask_user') return undefined;
  const raw = parseJsonObject(block.argsRaw)?.questions;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const questions: QuestionItem[] = [];
  for (const value of raw) {
    const item = questionItem(value);
    if (!item) return undefined;
    questions.push(item);
  }
  const state = questionState(block);
  if (!state) return undefined;
  const answers =
    state === 'answered' && block.result ? flattenContent(block.result.content) : undefined;
  return { kind: 'question', state, questions, answers };
}
