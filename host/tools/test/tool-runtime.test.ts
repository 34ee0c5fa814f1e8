import { describe, expect, it } from 'vitest';
import { errorCodes } from '@dsh/card-models/contract';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createToolRuntime,
  readTool,
  resultText,
  schemaArgs,
  ToolFailure,
  type Tool,
} from '../src/index.js';
import { allowEveryCall, createToolHarness } from './tool-harness.js';

const echoSchema = {
  type: 'object',
  properties: { say: { type: 'string' } },
  required: ['say'],
  additionalProperties: false,
} as const;

function fakeTool(
  name: string,
  execute: Tool<{ say: string }>['execute'],
  meta?: () => unknown,
): Tool<{ say: string }> {
  return {
    name,
    description: `${name} tool`,
    parameters: echoSchema,
    parseArgs: schemaArgs(echoSchema),
    execute,
    ...(meta ? { presentationMeta: meta } : {}),
  };
}

const echo = fakeTool(
  'echo',
  async (args) => ({ content: args.say, isError: false, value: args.say }),
  () => ({ m: 1 }),
);
const thrower = fakeTool('thrower', async () => {
  throw new Error('boom');
});
const failer = fakeTool('failer', async () => {
  throw new ToolFailure('not_found', 'no such thing');
});
const badMeta = fakeTool(
  'bad_meta',
  async () => ({ content: 'ok', isError: false, value: 1 }),
  () => {
    throw new Error('meta bug');
  },
);
const runtime = createToolRuntime([echo, thrower, failer, badMeta]);
const ctx = {
  cwd: '/',
  signal: new AbortController().signal,
  sessionId: 's',
  spillDir: '/tmp',
  callId: 'c1',
  gate: allowEveryCall,
};

describe('createToolRuntime()', () => {
  it.each([
    {
      name: 'echo',
      raw: '{"say":"hi"}',
      text: 'hi',
      isError: false,
      error: undefined,
      meta: '{"m":1}',
    },
    {
      name: 'nope',
      raw: '{}',
      text: 'Error: unknown tool "nope" (available: echo, thrower, failer, bad_meta)',
      isError: true,
      error: {
        name: 'UnknownTool',
        code: 'unknown_tool',
        message: 'unknown tool "nope" (available: echo, thrower, failer, bad_meta)',
      },
      meta: '',
    },
    {
      name: 'echo',
      raw: '{"say":',
      text: expect.stringMatching(
        /^Error: invalid arguments for echo: arguments are not valid JSON: /,
      ),
      isError: true,
      error: expect.objectContaining({
        name: 'InvalidArguments',
        code: errorCodes.invalidArguments,
      }),
      meta: '',
    },
    {
      name: 'echo',
      raw: '{"say":3}',
      text: 'Error: invalid arguments for echo: arguments.say must be a string, got number 3',
      isError: true,
      error: expect.objectContaining({ code: errorCodes.invalidArguments }),
      meta: '',
    },
    {
      name: 'echo',
      raw: '{"say":"x","loud":true}',
      text: 'Error: invalid arguments for echo: arguments.loud is not a known property (expected: say)',
      isError: true,
      error: expect.objectContaining({ code: errorCodes.invalidArguments }),
      meta: '',
    },
    {
      name: 'thrower',
      raw: '{"say":"x"}',
      text: 'Error: boom',
      isError: true,
      error: { name: 'Internal', code: 'internal', message: 'boom' },
      meta: '',
    },
    {
      name: 'failer',
      raw: '{"say":"x"}',
      text: 'Error: no such thing',
      isError: true,
      error: { name: 'NotFound', code: 'not_found', message: 'no such thing' },
      meta: '',
    },
    {
      name: 'bad_meta',
      raw: '{"say":"x"}',
      text: 'ok',
      isError: false,
      error: undefined,
      meta: '',
    },
  ])('$name $raw', async ({ name, raw, text, isError, error, meta }) => {
    const result = await runtime.run(name, raw, ctx, { topLevel: true });
    expect(result.content).toHaveLength(1);
    expect(result.content[0]?.block.case).toBe('text');
    expect(resultText(result)).toEqual(text);
    expect(result.isError).toBe(isError);
    expect(result.error).toEqual(error);
    expect(result.metaJson).toBe(meta);
  });

  it('computes metadata for top-level calls only', async () => {
    const h = createToolHarness();
    try {
      writeFileSync(join(h.cwd, 'a.txt'), 'a\n');
      const top = await h.run('read', { file_path: 'a.txt' }, {}, true);
      const sub = await h.run('read', { file_path: 'a.txt' }, {}, false);
      expect(top.meta).toMatchObject({ lines: 1 });
      expect(sub.result.metaJson).toBe('');
      expect(sub.text).toBe(top.text);
    } finally {
      await h.dispose();
    }
  });

  it('lists definitions for the model', () => {
    expect(runtime.definitions().map((d) => d.name)).toEqual([
      'echo',
      'thrower',
      'failer',
      'bad_meta',
    ]);
    expect(runtime.definitions()[0]?.parameters).toBe(echoSchema);
    expect(runtime.has('echo')).toBe(true);
    expect(runtime.has('read')).toBe(false);
  });

  it('refuses duplicate tool names', () => {
    expect(() => createToolRuntime([readTool, readTool])).toThrow('duplicate tool name: read');
  });

  it('numbers nested dispatch ids under their parent', async () => {
    const seen: string[] = [];
    const dispatch = runtime.createDispatch(ctx, {
      start: (s) => seen.push(`${s.parentCallId}>${s.callId}`),
    });
    await dispatch('echo', '{"say":"a"}');
    await dispatch('echo', '{"say":"b"}');
    expect(seen).toEqual(['c1>c1.1', 'c1>c1.2']);
  });
});
