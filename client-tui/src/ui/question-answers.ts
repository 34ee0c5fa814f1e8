import type { PendingItem } from '@dsh/card-models';

type PendingQuestion = Extract<PendingItem, { kind: 'question' }>;

/** Progress of answering one pending question request, one question at a time. */
export interface QuestionAnswers {
  readonly questionId: string;
  /** Index of the question being answered. */
  readonly index: number;
  /** Answers of the questions before `index`. */
  readonly answers: readonly (readonly string[])[];
  /** Options toggled so far on a multi-select question. */
  readonly chosen: readonly number[];
}

/** What a key did: the next progress, or the complete answers to send. */
export type AnswerStep =
  | { readonly kind: 'progress'; readonly answers: QuestionAnswers }
  | { readonly kind: 'done'; readonly answers: readonly (readonly string[])[] }
  | { readonly kind: 'ignored' };

/** Fresh progress for `item` (or the same progress when it is for `item` already). */
export function startAnswers(item: PendingQuestion, current?: QuestionAnswers): QuestionAnswers {
  if (current?.questionId === item.questionId) return current;
  return { questionId: item.questionId, index: 0, answers: [], chosen: [] };
}

function advance(
  item: PendingQuestion,
  state: QuestionAnswers,
  answer: readonly string[],
): AnswerStep {
  const answers = [...state.answers, answer];
  if (answers.length >= item.questions.length) return { kind: 'done', answers };
  return { kind: 'progress', answers: { ...state, index: state.index + 1, answers, chosen: [] } };
}

/**
 * Number key `n` (1-based) on the current question: a single-select question is answered
 * with that option; a multi-select question toggles it (confirmed by `confirm`).
 */
export function chooseOption(item: PendingQuestion, state: QuestionAnswers, n: number): AnswerStep {
  const question = item.questions[state.index];
  const option = question?.options[n - 1];
  if (!question || !option) return { kind: 'ignored' };
  if (!question.multiSelect) return advance(item, state, [option.label]);
  const chosen = state.chosen.includes(n - 1)
    ? state.chosen.filter((i) => i !== n - 1)
    : [...state.chosen, n - 1].sort((a, b) => a - b);
  return { kind: 'progress', answers: { ...state, chosen } };
}

/** Confirms the toggled options of a multi-select question. */
export function confirmChoice(item: PendingQuestion, state: QuestionAnswers): AnswerStep {
  const question = item.questions[state.index];
  if (!question?.multiSelect || state.chosen.length === 0) return { kind: 'ignored' };
  return advance(
    item,
    state,
    state.chosen.map((i) => question.options[i]?.label ?? ''),
  );
}

/** Answers the current question with typed text. */
export function typeAnswer(
  item: PendingQuestion,
  state: QuestionAnswers,
  text: string,
): AnswerStep {
  if (text.trim() === '' || item.questions[state.index] === undefined) return { kind: 'ignored' };
  return advance(item, state, [text]);
}
