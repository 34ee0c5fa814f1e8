import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { runSandboxed, type SandboxLimits } from './code-sandbox.js';
import { outputLimitChars } from './output-collector.js';
import { resultText } from './tool-runtime.js';
import type { Tool } from './tool.js';

/** Arguments of `run_code`. */
export interface RunCodeArgs {
  code: string;
  description: string;
}

/**
 * The limits of one program: time, tool calls, QuickJS heap and stack, characters of
 * output and of one call's arguments that reach the host, and how many programs deep
 * `run_code` may nest (a program's own `run_code` call is one level deeper).
 */
export const runCodeLimits = {
  timeoutMs: 30_000,
  maxCalls: 50,
  memoryBytes: 64 * 2 ** 20,
  stackBytes: 512 * 2 ** 10,
  maxChars: outputLimitChars,
  maxArgsChars: 8_000_000,
  maxDepth: 3,
} as const;

/** The limits `createRunCodeTool` takes; unset ones keep `runCodeLimits`. */
export type RunCodeLimits = SandboxLimits & { maxDepth: number };

/** How long a program's unfinished tool calls get to stop after it ends. */
const subCallGraceMs = 3000;

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
 * `run_code`: runs the model's JavaScript in a QuickJS sandbox on a worker thread whose
 * `tools` calls go back through `ctx.dispatch` (recorded as code-dispatch sub-calls, each
 * through the approval gate), within its limits; returns the printed output and the JSON
 * of the returned value. Calls still running when the program ends are stopped.
 */
export function createRunCodeTool(overrides: Partial<RunCodeLimits> = {}): Tool<RunCodeArgs> {
  const limits: RunCodeLimits = { ...runCodeLimits, ...overrides };
  return {
    name: 'run_code',
    description:
      'Runs JavaScript that can call the other tools through `tools.<name>(args)`, for loops and batches of tool calls. No require, process or network; 30 s, 50 tool calls and 64 MB at most.',
    ...toolSchema<RunCodeArgs>(schema),
    async execute(args, ctx) {
      const dispatch = ctx.dispatch;
      if (!dispatch)
        throw new ToolFailure('unavailable', 'run_code cannot call tools here (no dispatcher)');
      if ((ctx.depth ?? 0) >= limits.maxDepth) {
        throw new ToolFailure(
          'nesting_limit',
          `run_code nests at most ${limits.maxDepth} programs deep; do this level's work in the calling program`,
        );
      }
      const ended = new AbortController();
      const running = new Set<Promise<unknown>>();
      const outcome = await runSandboxed(args.code, {
        ...limits,
        signal: ctx.signal,
        call(name, argsJson) {
          const call = dispatch(name, argsJson, ended.signal).then((result) => ({
            text: resultText(result),
            isError: result.isError,
            code: result.error?.code,
            message: result.error?.message,
          }));
          running.add(call);
          void call.finally(() => running.delete(call));
          return call;
        },
      });
      ended.abort();
      await untilSettled([...running], subCallGraceMs);
      const lines = [...outcome.logs];
      let chars = outcome.chars;
      if (outcome.ok) {
        if (outcome.result !== undefined) {
          lines.push(`Result: ${outcome.result}`);
          chars += (lines.length > 1 ? 1 : 0) + 'Result: '.length + (outcome.resultChars ?? 0);
        }
        if (lines.length === 0) lines.push('(the program printed nothing and returned nothing)');
        return { content: clip(lines.join('\n'), chars), isError: false };
      }
      const failure =
        outcome.code === 'interrupted'
          ? new ToolFailure(errorCodes.interrupted, interruptedMessage)
          : new ToolFailure(
              outcome.code === 'timeout' ? errorCodes.timeout : outcome.code,
              outcome.message,
            );
      lines.push(`Error: ${outcome.message}`);
      chars += (lines.length > 1 ? 1 : 0) + 'Error: '.length + outcome.message.length;
      return { content: clip(lines.join('\n'), chars), isError: true, error: failure.toInfo() };
    },
  };
}

/** The content within the output limit; `chars` is the length it would have had in full. */
function clip(text: string, chars: number): string {
  const total = Math.max(chars, text.length);
  if (total <= outputLimitChars) return text;
  return `${text.slice(0, outputLimitChars)}\n[output truncated: ${total} characters in total]`;
}

/** Waits for `calls` to settle, at most `withinMs`. */
async function untilSettled(calls: Promise<unknown>[], withinMs: number): Promise<void> {
  if (calls.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
  await Promise.race([Promise.allSettled(calls), late]);
  clearTimeout(timer);
}
