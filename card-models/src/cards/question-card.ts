import { errorCodes } from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { isObject, parseJsonObject } from './card-json.js';
import type { QuestionCard, QuestionItem, QuestionOption } from './card-types.js';
import { flattenContent } from './generic-row.js';

const noValues: readonly string[] = [];

function option(value: unknown, answer: readonly string[] | undefined): QuestionOption | undefined {
  if (!isObject(value) || typeof value.label !== 'string') return undefined;
  const description = value.description;
  if (description !== undefined && typeof description !== 'string') return undefined;
  return { label: value.label, description, chosen: answer?.includes(value.label) === true };
}

function questionItem(
  value: unknown,
  answer: readonly string[] | undefined,
): QuestionItem | undefined {
  if (!isObject(value) || typeof value.question !== 'string') return undefined;
  const { header, options, multiSelect } = value;
  if (header !== undefined && typeof header !== 'string') return undefined;
  if (multiSelect !== undefined && typeof multiSelect !== 'boolean') return undefined;
  if (options !== undefined && !Array.isArray(options)) return undefined;
  const parsed: QuestionOption[] = [];
  for (const raw of options ?? []) {
    const item = option(raw, answer);
    if (!item) return undefined;
    parsed.push(item);
  }
  const labels = new Set(parsed.map((o) => o.label));
  const typed = answer?.filter((v) => !labels.has(v)) ?? noValues;
  return {
    question: value.question,
    header,
    options: parsed,
    multiSelect: multiSelect === true,
    answer,
    typed: typed.length === 0 ? noValues : typed,
  };
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
 * The question row of an `ask_user` call: the questions from the arguments, the state
 * (waiting, answered with the result text, cancelled or interrupted from the structured
 * error) and, once answered, the person's answer per question with the chosen options
 * marked (from the block's `answers`). Other errors and malformed questions give
 * `undefined` (Generic).
 */
export function questionCard(block: ToolCallBlock): QuestionCard | undefined {
  if (block.call === null || block.name !== 'ask_user') return undefined;
  const raw = parseJsonObject(block.argsRaw)?.questions;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const state = questionState(block);
  if (!state) return undefined;
  // Answers mark the options only once the call settled as answered.
  const answers = state === 'answered' ? block.answers : undefined;
  const questions: QuestionItem[] = [];
  for (const [i, value] of raw.entries()) {
    const item = questionItem(value, answers?.[i]);
    if (!item) return undefined;
    questions.push(item);
  }
  const text =
    state === 'answered' && block.result ? flattenContent(block.result.content) : undefined;
  return { kind: 'question', state, questions, answers: text };
}
