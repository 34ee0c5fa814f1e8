import { afterAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@dsh/card-models/contract';
import { createToolHarness } from './tool-harness.js';

const h = createToolHarness();
afterAll(() => h.dispose());

const names = h.runtime.definitions().map((d) => d.name);

/** Malformed arguments every tool must refuse, whatever its contract. */
const generic = ['not json', '[1,2]', '"text"', 'null', '{"zzz_unknown":1}'];

/** One malformed case per rule of each tool's contract. */
const specific: [string, unknown][] = [
  ['bash', {}],
  ['bash', { command: 5 }],
  ['bash', { command: '' }],
  ['bash', { command: 'x', timeout_ms: 600_001 }],
  ['bash', { command: 'x', timeout_ms: 1.5 }],
  ['bash', { command: 'x', background: 'yes' }],
  ['bash', { command: 'x', session: 's', background: true }],
  ['bash', { command: 'x', session: 's', workdir: 'a' }],
  ['pwsh', { command: ['x'] }],
  ['terminal_send', { session: 's' }],
  ['terminal_send', { input: 'x' }],
  ['read', {}],
  ['read', { file_path: 'a', offset: 0 }],
  ['read', { file_path: 'a', limit: -1 }],
  ['write', { file_path: 'a' }],
  ['write', { content: 'a' }],
  ['edit', { file_path: 'a', old_string: 'x' }],
  ['edit', { file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 1 }],
  ['str_replace_editor', { command: 'view' }],
  ['str_replace_editor', { command: 'rename', path: 'a' }],
  ['str_replace_editor', { command: 'insert', path: 'a', new_str: 'x', insert_line: -1 }],
  ['grep', { pattern: '[' }],
  ['grep', { pattern: 'x', max_results: 0 }],
  ['glob', {}],
  ['glob', { pattern: 3 }],
  ['web_fetch', { url: 'javascript:alert(1)' }],
  ['web_fetch', {}],
  ['web_search', { queries: 'x' }],
  ['web_search', { queries: [1] }],
  ['todo_write', { todos: [{ content: 'x' }] }],
  ['ask_user', { questions: [] }],
  ['ask_user', { questions: [{ question: 'q', options: [{ description: 'no label' }] }] }],
  ['ask_user', { questions: [{ question: 'q', multiSelect: 'yes' }] }],
  ['skill', {}],
  ['skill', { name: 'x', args: 3 }],
  ['run_code', { code: 'return 1' }],
  ['run_code', { description: 'd' }],
];

describe('every tool refuses malformed arguments', () => {
  it('covers every tool', () => {
    expect(new Set(specific.map(([name]) => name))).toEqual(new Set(names));
  });

  it.each(names.flatMap((name) => generic.map((raw) => ({ name, raw }))))(
    '$name $raw',
    async ({ name, raw }) => {
      const { result, text } = await h.run(name, raw);
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe(errorCodes.invalidArguments);
      expect(text).toMatch(new RegExp(`^Error: invalid arguments for ${name}: .+`));
    },
  );

  it.each(specific.map(([name, args]) => ({ name, args: JSON.stringify(args) })))(
    '$name $args',
    async ({ name, args }) => {
      const { result, text } = await h.run(name, args);
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe(errorCodes.invalidArguments);
      expect(result.metaJson).toBe('');
      expect(text).toMatch(new RegExp(`^Error: invalid arguments for ${name}: .+`));
    },
  );
});
