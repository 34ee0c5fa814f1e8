import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import type { Tool, UserQuestion } from './tool.js';

/** Arguments of `ask_user`. */
export interface AskUserArgs {
  questions: UserQuestion[];
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    questions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          question: { type: 'string', minLength: 1 },
          header: { type: 'string', description: 'A short topic shown above the question.' },
          options: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                label: { type: 'string', minLength: 1 },
                description: { type: 'string' },
              },
              required: ['label'],
              additionalProperties: false,
            },
          },
          multiSelect: { type: 'boolean', description: 'Whether several options may be chosen.' },
        },
        required: ['question'],
        additionalProperties: false,
      },
    },
  },
  required: ['questions'],
  additionalProperties: false,
};

/**
 * `ask_user`: asks the person through `ctx.askUser` and returns the answers as text;
 * a declined question is the structured error `cancelled`.
 */
export const askUserTool: Tool<AskUserArgs> = {
  name: 'ask_user',
  description:
    'Asks the person one or more questions (optionally with options to choose from) and waits for the answers.',
  ...toolSchema<AskUserArgs>(schema),
  async execute(args, ctx) {
    if (!ctx.askUser) {
      throw new ToolFailure(
        'unavailable',
        'nobody can answer questions in this session; continue without asking',
      );
    }
    const answers = await ctx.askUser(args.questions, ctx.signal);
    if (ctx.signal.aborted) throw new ToolFailure(errorCodes.interrupted, interruptedMessage);
    if (answers === 'cancelled') {
      throw new ToolFailure(
        errorCodes.cancelled,
        'the person declined to answer; continue without the answers or ask differently',
      );
    }
    const rows = args.questions.map((q, i) => {
      const values = answers[i] ?? [];
      return `Q: ${q.question}\nA: ${values.length === 0 ? '(no answer)' : values.join(', ')}`;
    });
    return { content: rows.join('\n\n'), isError: false };
  },
};
