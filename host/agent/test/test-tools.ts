import type { Tool } from '@dsh/tools';

/** `echo {text}`: returns the text; a tool with no side effects for loop tests. */
export const echoTool: Tool<{ text: string }> = {
  name: 'echo',
  description: 'Returns its text argument.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  parseArgs(raw) {
    try {
      const value: unknown = JSON.parse(raw);
      const text = (value as { text?: unknown } | null)?.text;
      return typeof text === 'string'
        ? { ok: true, value: { text } }
        : { ok: false, error: 'text must be a string' };
    } catch (error) {
      return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
    }
  },
  execute: async (args) => ({ content: `echo: ${args.text}`, isError: false, value: args.text }),
  presentationMeta: (_args, value) => ({ echoed: value }),
};
