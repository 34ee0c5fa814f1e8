import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { runSandboxed } from './code-sandbox.js';
import { outputLimitChars } from './output-collector.js';
import { resultText } from './tool-runtime.js';
import type { Tool } from './tool.js';

/** Arguments of `run_code`. */
export interface RunCodeArgs {
  code: string;
  description: string;
}

/** A program's time budget and the most tool calls it may make. */
export const runCodeLimits = { timeoutMs: 30_000, maxCalls: 50 } as const;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      minLength: 1,
      description:
        "JavaScript run as the body of an async function. `await tools.<name>({...args})` calls a tool and resolves with its text (when the tool fails it rejects with an Error carrying `code` and the tool's `content`); console.log output and the returned value come back.",
    },
    description: {
      type: 'string',
      minLength: 1,
      description: 'What the program does, in a few words.',
    },
  },
  required: ['code', 'description'],
  additionalProperties: false,
};

/**
 * `run_code`: runs the model's JavaScript in an isolated context whose `tools` calls
 * go back through `ctx.dispatch` (recorded as code-dispatch sub-calls), within a time
 * and call budget; returns the printed output and the JSON of the returned value.
 */
export function createRunCodeTool(
  limits: { timeoutMs: number; maxCalls: number } = runCodeLimits,
): Tool<RunCodeArgs> {
  return {
    name: 'run_code',
    description:
      'Runs JavaScript that can call the other tools through `tools.<name>(args)`, for loops and batches of tool calls. No require, process or network; 30 s and 50 tool calls at most.',
    ...toolSchema<RunCodeArgs>(schema),
    async execute(args, ctx) {
      const dispatch = ctx.dispatch;
      if (!dispatch)
        throw new ToolFailure('unavailable', 'run_code cannot call tools here (no dispatcher)');
      const outcome = await runSandboxed(args.code, {
        ...limits,
        signal: ctx.signal,
        async call(name, argsJson) {
          const result = await dispatch(name, argsJson);
          return {
            text: resultText(result),
            isError: result.isError,
            code: result.error?.code,
            message: result.error?.message,
          };
        },
      });
      const lines = [...outcome.logs];
      if (outcome.ok) {
        if (outcome.result !== undefined) lines.push(`Result: ${outcome.result}`);
        if (lines.length === 0) lines.push('(the program printed nothing and returned nothing)');
        return { content: clip(lines.join('\n')), isError: false };
      }
      const failure =
        outcome.code === 'interrupted'
          ? new ToolFailure(errorCodes.interrupted, interruptedMessage)
          : new ToolFailure(
              outcome.code === 'timeout' ? errorCodes.timeout : outcome.code,
              outcome.message,
            );
      lines.push(`Error: ${outcome.message}`);
      return { content: clip(lines.join('\n')), isError: true, error: failure.toInfo() };
    },
  };
}

function clip(text: string): string {
  if (text.length <= outputLimitChars) return text;
  return `${text.slice(0, outputLimitChars)}\n[output truncated: ${text.length} characters in total]`;
}
