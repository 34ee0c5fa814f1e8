import { terminalSendAck } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import type { ShellSessions } from './shell-sessions.js';
import type { Tool } from './tool.js';

/** Arguments of `terminal_send`. */
export interface TerminalSendArgs {
  session: string;
  input: string;
  background?: boolean;
}

/** How long `terminal_send` waits for output: until quiet for `idleMs`, at most `maxWaitMs`. */
export const terminalWait = { idleMs: 500, maxWaitMs: 30_000 } as const;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    session: { type: 'string', minLength: 1, description: 'The persistent shell to write to.' },
    input: {
      type: 'string',
      description: 'Raw text to write to the terminal; include "\\n" to press Enter.',
    },
    background: { type: 'boolean', description: 'Return at once without waiting for output.' },
  },
  required: ['session', 'input'],
  additionalProperties: false,
};

/**
 * `terminal_send`: writes raw input to a persistent shell (started when missing), for
 * example an answer to a prompt of the command running there. Foreground calls return
 * the output that follows until the terminal is quiet.
 */
export function createTerminalSendTool(shells: ShellSessions): Tool<TerminalSendArgs> {
  return {
    name: 'terminal_send',
    description:
      'Writes input to a persistent shell session (see the session argument of bash) and returns the output that follows.',
    ...toolSchema<TerminalSendArgs>(schema),
    async execute(args, ctx) {
      const shell = shells.shell(ctx.sessionId, args.session, ctx.cwd);
      const background = args.background ?? false;
      const output = await shell.send(args.input, {
        ...terminalWait,
        background,
        signal: ctx.signal,
        onOutput: ctx.liveOutput?.bind(ctx),
      });
      if (background) return { content: terminalSendAck(args.session), isError: false };
      return { content: output, isError: false };
    },
  };
}
