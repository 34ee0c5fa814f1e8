import { describe, expect, it } from 'vitest';
import { questionCard, type QuestionCard } from '../../src/cards/index.js';
import { errorCodes, interruptedMessage } from '../../src/contract/index.js';
import { failed, succeeded } from './card-blocks.js';
import { asStopped, asSubCall, toolBlock } from './tool-block.js';

const questions = [
  {
    question: 'Which database?',
    header: 'DB',
    options: [{ label: 'Postgres', description: 'relational' }, { label: 'SQLite' }],
  },
  { question: 'Anything else?', multiSelect: true },
];
const args = { questions };

describe('questionCard()', () => {
  const states: [string, ReturnType<typeof toolBlock>, Partial<QuestionCard> | 'Generic'][] = [
    [
      'waiting while running',
      toolBlock('ask_user', args),
      { state: 'waiting', answers: undefined },
    ],
    [
      'answered: the answers from the result',
      succeeded('ask_user', args, 'DB: Postgres\nAnything else?: no'),
      { state: 'answered', answers: 'DB: Postgres\nAnything else?: no' },
    ],
    [
      'cancelled by the person',
      failed('ask_user', args, errorCodes.cancelled),
      { state: 'cancelled', answers: undefined },
    ],
    [
      'interrupted by a cancelled turn',
      failed('ask_user', args, errorCodes.interrupted, interruptedMessage),
      { state: 'interrupted' },
    ],
    ['stopped without a result', asStopped(toolBlock('ask_user', args)), { state: 'interrupted' }],
    ['other errors are Generic', failed('ask_user', args, 'denied'), 'Generic'],
    [
      'sub-calls follow the same rule',
      asSubCall(toolBlock('ask_user', args)),
      { state: 'waiting' },
    ],
  ];
  it.each(states)('state: %s', (_, block, expected) => {
    const card = questionCard(block);
    if (expected === 'Generic') expect(card).toBeUndefined();
    else expect(card).toMatchObject({ kind: 'question', ...expected });
  });

  it('reads the questions from the arguments', () => {
    expect(questionCard(toolBlock('ask_user', args))?.questions).toEqual([
      {
        question: 'Which database?',
        header: 'DB',
        options: [
          { label: 'Postgres', description: 'relational', chosen: false },
          { label: 'SQLite', description: undefined, chosen: false },
        ],
        multiSelect: false,
        answer: undefined,
        typed: [],
      },
      {
        question: 'Anything else?',
        header: undefined,
        options: [],
        multiSelect: true,
        answer: undefined,
        typed: [],
      },
    ]);
  });

  const answered = (answers: string[][]) => ({
    ...succeeded('ask_user', args, 'DB: SQLite\nAnything else?: docs'),
    answers,
  });
  const marks: [string, ReturnType<typeof toolBlock>, (string[] | undefined)[], string[][]][] = [
    [
      'answered: chosen options marked, free text kept',
      answered([['SQLite'], ['docs', 'tests']]),
      [['SQLite'], ['docs', 'tests']],
      [['SQLite'], []],
    ],
    [
      'an answer that is not an option is typed text',
      answered([['MySQL'], []]),
      [['MySQL'], []],
      [[], []],
    ],
    [
      'answers missing for a question',
      answered([['Postgres']]),
      [['Postgres'], undefined],
      [['Postgres'], []],
    ],
    [
      'answers on a running call are not shown yet',
      { ...toolBlock('ask_user', args), answers: [['SQLite'], ['x']] },
      [undefined, undefined],
      [[], []],
    ],
    [
      'no answers in the window',
      succeeded('ask_user', args, 'text only'),
      [undefined, undefined],
      [[], []],
    ],
  ];
  it.each(marks)('answers: %s', (_, block, answer, chosen) => {
    const card = questionCard(block);
    expect(card?.questions.map((q) => q.answer)).toEqual(answer);
    expect(
      card?.questions.map((q) => q.options.filter((o) => o.chosen).map((o) => o.label)),
    ).toEqual(chosen);
  });

  it('lists answer values that are not options as typed', () => {
    const card = questionCard(answered([['SQLite', 'other db'], ['docs']]));
    expect(card?.questions.map((q) => q.typed)).toEqual([['other db'], ['docs']]);
  });

  const malformed: [string, unknown][] = [
    ['no questions', {}],
    ['empty questions', { questions: [] }],
    ['question not a string', { questions: [{ question: 1 }] }],
    ['header not a string', { questions: [{ question: 'q', header: 2 }] }],
    ['options not a list', { questions: [{ question: 'q', options: 'a' }] }],
    ['option without label', { questions: [{ question: 'q', options: [{}] }] }],
    ['multiSelect not a boolean', { questions: [{ question: 'q', multiSelect: 'yes' }] }],
    ['arguments not JSON', '{"questions":'],
  ];
  it.each(malformed)('malformed arguments give Generic: %s', (_, badArgs) => {
    expect(questionCard(toolBlock('ask_user', badArgs))).toBeUndefined();
  });

  it('gives Generic for an orphan', () => {
    expect(questionCard(toolBlock('ask_user', args, { head: false, result: {} }))).toBeUndefined();
  });
});
