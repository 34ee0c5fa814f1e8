import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCodes } from '@dsh/card-models/contract';
import type { UserQuestion } from '../src/index.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('todo_write', () => {
  it('confirms the list', async () => {
    const todos = [
      { content: 'Read the spec', status: 'completed' },
      { content: 'Write the tools', status: 'in_progress' },
      { content: 'Report', status: 'pending' },
    ];
    const { result, text } = await h.run('todo_write', { todos });
    expect(result.isError).toBe(false);
    expect(result.metaJson).toBe('');
    expect(text).toMatchInlineSnapshot(`
      "Todo list updated: 3 items (1 completed, 1 in progress, 1 pending)
      [x] Read the spec
      [~] Write the tools
      [ ] Report"
    `);
  });

  it.each([
    { todos: [{ content: 'x', status: 'done' }], message: 'must be one of' },
    { todos: [{ status: 'pending' }], message: 'arguments.todos[0].content is required' },
    { todos: 'x', message: 'must be an array' },
  ])('rejects $todos', async ({ todos, message }) => {
    const { result, text } = await h.run('todo_write', { todos });
    expect(result.error?.code).toBe(errorCodes.invalidArguments);
    expect(text).toContain(message);
  });
});

describe('ask_user', () => {
  const questions: UserQuestion[] = [
    {
      question: 'Which database?',
      header: 'Storage',
      options: [{ label: 'sqlite' }, { label: 'postgres' }],
    },
    { question: 'Which features?', options: [{ label: 'a' }, { label: 'b' }], multiSelect: true },
    { question: 'Anything else?' },
  ];

  it('returns the answers as text', async () => {
    let asked: UserQuestion[] = [];
    const askUser = async (qs: UserQuestion[]) => {
      asked = qs;
      return [['sqlite'], ['a', 'b'], []];
    };
    const { result, text } = await h.run('ask_user', { questions }, { askUser });
    expect(result.isError).toBe(false);
    expect(asked).toEqual(questions);
    expect(text).toBe(
      'Q: Which database?\nA: sqlite\n\nQ: Which features?\nA: a, b\n\nQ: Anything else?\nA: (no answer)',
    );
  });

  it.each([
    { name: 'cancelled', askUser: async () => 'cancelled' as const, code: errorCodes.cancelled },
    { name: 'no askUser', askUser: undefined, code: 'unavailable' },
  ])('$name -> $code', async ({ askUser, code }) => {
    const { result } = await h.run('ask_user', { questions }, askUser ? { askUser } : {});
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe(code);
  });

  it('is interrupted by the abort signal', async () => {
    const controller = new AbortController();
    const askUser = (_qs: UserQuestion[], signal: AbortSignal) =>
      new Promise<'cancelled'>((resolve) =>
        signal.addEventListener('abort', () => resolve('cancelled')),
      );
    const running = h.run('ask_user', { questions }, { askUser, signal: controller.signal });
    controller.abort();
    expect((await running).result.error?.code).toBe(errorCodes.interrupted);
  });
});

describe('skill', () => {
  it('prefers the project skill and appends args', async () => {
    mkdirSync(join(h.cwd, '.dsh/skills'), { recursive: true });
    mkdirSync(join(h.root, 'home/.dsh/skills'), { recursive: true });
    writeFileSync(join(h.cwd, '.dsh/skills/deploy.md'), '# Deploy\nRun the script.\n');
    writeFileSync(join(h.root, 'home/.dsh/skills/deploy.md'), 'user version');
    writeFileSync(join(h.root, 'home/.dsh/skills/review.md'), '# Review\n');
    const project = await h.run('skill', { name: 'deploy', args: '--prod' });
    expect(project.text).toBe('# Deploy\nRun the script.\n\nArguments: --prod');
    const user = await h.run('skill', { name: 'review' });
    expect(user.text).toBe('# Review\n');
  });

  it('lists the available skills for an unknown name', async () => {
    mkdirSync(join(h.root, 'home/.dsh/skills'), { recursive: true });
    writeFileSync(join(h.root, 'home/.dsh/skills/review.md'), '');
    writeFileSync(join(h.root, 'home/.dsh/skills/build.md'), '');
    const { result, text } = await h.run('skill', { name: 'nope' });
    expect(result.error?.code).toBe('not_found');
    expect(text).toBe('Error: unknown skill "nope"; available skills: build, review');
  });

  it('says where to put skills when there are none', async () => {
    const { text } = await h.run('skill', { name: 'nope' });
    expect(text).toContain('no skills are installed');
  });

  it.each(['../etc/passwd', '.hidden', 'a/b'])('rejects the name %s', async (name) => {
    const { result } = await h.run('skill', { name });
    expect(result.error?.code).toBe(errorCodes.invalidArguments);
  });
});
