import { expect } from 'vitest';
import type { CardCase } from './card-case.js';

/** Arguments of the right JSON shape but a wrong field type or a missing field, per tool. */
const wrongFields: [tool: string, args: unknown][] = [
  ['bash', { command: 5 }],
  ['bash', { command: 'ls', timeout_ms: 'soon' }],
  ['pwsh', { command: ['ls'] }],
  ['terminal_send', { session: 'contract-bad', input: 5 }],
  ['read', { file_path: 7 }],
  ['write', { file_path: 'bad-write.txt' }],
  ['edit', { file_path: 'bad-edit.txt', old_string: 1, new_string: 'b' }],
  ['str_replace_editor', { command: 'create', path: 'bad-sre.txt', file_text: 3 }],
  ['grep', { pattern: 1 }],
  ['glob', { pattern: 3 }],
  ['web_search', { query: 5 }],
  ['web_fetch', { url: 5 }],
  ['todo_write', { todos: [{ content: 'x', status: 'doing' }] }],
  ['ask_user', { questions: [{ question: 1 }] }],
  ['skill', { name: '' }],
  ['run_code', { code: 'return 1' }],
];

const tools = [...new Set(wrongFields.map(([tool]) => tool))];

/**
 * Malformed arguments for every first-party tool: text that is not JSON, and JSON with a
 * wrong or missing field. The host answers `invalid_arguments` without running anything;
 * the card is Generic both while running and once settled.
 */
export const malformedCases: CardCase[] = [
  ...tools.map((tool): CardCase => ({
    name: 'text that is not JSON',
    tool,
    args: '{"oops',
    running: 'generic',
    settled: 'generic',
    errorCode: 'invalid_arguments',
    check: (run) => expect(run.card.row.argsText).toBe('{"oops'),
  })),
  ...wrongFields.map(([tool, args]): CardCase => ({
    name: `wrong or missing field ${JSON.stringify(args)}`,
    tool,
    args,
    running: 'generic',
    settled: 'generic',
    errorCode: 'invalid_arguments',
    check: (run) =>
      expect(run.card.row.errorText).toMatch(new RegExp(`^invalid arguments for ${tool}: `)),
  })),
  // Cards that read only the arguments keep their body for any result (card-models rule).
  {
    name: 'an unknown property: the host refuses it, the skill row keeps the error state',
    tool: 'skill',
    args: { name: 'greet', bogus: true },
    running: 'skill',
    settled: 'skill',
    errorCode: 'invalid_arguments',
    check: (run) => expect(run.card.body).toEqual({ kind: 'skill', name: 'greet', state: 'error' }),
  },
  {
    name: 'an unknown property: the host refuses it, the todo card still shows the list',
    tool: 'todo_write',
    args: { todos: [{ content: 'x', status: 'pending' }], bogus: true },
    running: 'todo',
    settled: 'todo',
    errorCode: 'invalid_arguments',
    check: (run) =>
      expect(run.card.body).toEqual({
        kind: 'todo',
        items: [{ content: 'x', status: 'pending' }],
        done: 0,
        active: 0,
        pending: 1,
      }),
  },
];
