import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bodyOf, type CardCase } from './card-case.js';

const questions = [
  {
    question: 'Proceed?',
    header: 'Go',
    options: [{ label: 'Yes', description: 'do it' }, { label: 'No' }],
  },
];
/** The question card's items; `chosen` are the labels the person picked. */
const questionItems = (chosen?: string[]) => [
  {
    question: 'Proceed?',
    header: 'Go',
    options: [
      { label: 'Yes', description: 'do it', chosen: chosen?.includes('Yes') === true },
      { label: 'No', description: undefined, chosen: chosen?.includes('No') === true },
    ],
    multiSelect: false,
    answer: chosen,
    typed: [],
  },
];

const program = [
  'const out = await tools.bash({ command: "echo sub" });',
  'let missing = "";',
  'try { await tools.read({ file_path: "nope.txt" }); } catch (e) { missing = e.code; }',
  'const inner = await tools.run_code({ description: "inner", code: "return await tools.glob({ pattern: \\"*.nothing\\" })" });',
  'console.log("done");',
  'return { out, missing, inner };',
].join('\n');

/** todo_write, ask_user, skill, run_code and unknown tools. */
export const interactionCases: CardCase[] = [
  {
    name: 'todo_write: the list and its counts',
    tool: 'todo_write',
    args: {
      todos: [
        { content: 'plan', status: 'completed' },
        { content: 'build', status: 'in_progress' },
        { content: 'ship', status: 'pending' },
      ],
    },
    running: 'todo',
    settled: 'todo',
    errorCode: '',
    check: (run) => {
      expect(run.card.body).toEqual({
        kind: 'todo',
        items: [
          { content: 'plan', status: 'completed' },
          { content: 'build', status: 'in_progress' },
          { content: 'ship', status: 'pending' },
        ],
        done: 1,
        active: 1,
        pending: 1,
      });
      expect(run.text).toMatch(/\[x\] plan[\s\S]*\[~\] build[\s\S]*\[ \] ship/);
    },
  },
  {
    name: 'ask_user answered',
    tool: 'ask_user',
    args: { questions },
    answer: [['Yes']],
    running: 'question',
    settled: 'question',
    errorCode: '',
    check: (run) => {
      expect(run.runningCard.body).toEqual({
        kind: 'question',
        state: 'waiting',
        questions: questionItems(),
        answers: undefined,
      });
      expect(run.card.body).toEqual({
        kind: 'question',
        state: 'answered',
        questions: questionItems(['Yes']),
        answers: 'Q: Proceed?\nA: Yes',
      });
      expect(run.events.map((e) => e.payload.case)).toEqual([
        'turnStart',
        'assistantMessage',
        'toolCall',
        'questionRequested',
        'questionResolved',
        'toolResult',
      ]);
    },
  },
  {
    name: 'ask_user cancelled: the cancelled question state',
    tool: 'ask_user',
    args: { questions },
    answer: 'cancelled',
    running: 'question',
    settled: 'question',
    errorCode: 'cancelled',
    check: (run) => {
      expect(bodyOf(run, 'question')).toMatchObject({ state: 'cancelled' });
      expect(run.card.status).toEqual({ state: 'declined', label: 'declined' });
    },
  },
  {
    name: 'ask_user interrupted by a cancelled turn',
    tool: 'ask_user',
    args: { questions },
    answer: 'abort',
    running: 'question',
    settled: 'question',
    errorCode: 'interrupted',
    check: (run) => {
      expect(bodyOf(run, 'question')).toMatchObject({ state: 'interrupted' });
      expect(run.card.status).toEqual({ state: 'stopped', label: 'stopped' });
    },
  },
  {
    name: 'ask_user with nobody to answer: Generic',
    tool: 'ask_user',
    args: { questions },
    running: 'question',
    settled: 'generic',
    errorCode: 'unavailable',
  },
  {
    name: 'skill',
    tool: 'skill',
    args: { name: 'greet', args: 'Ada' },
    setup: ({ h }) => {
      mkdirSync(join(h.cwd, '.dsh/skills'), { recursive: true });
      writeFileSync(join(h.cwd, '.dsh/skills/greet.md'), 'Say hello.\n');
    },
    running: 'skill',
    settled: 'skill',
    errorCode: '',
    check: (run) => {
      expect(run.card.body).toEqual({ kind: 'skill', name: 'greet', state: 'ok' });
      expect(run.text).toMatch(/Say hello\.[\s\S]*\n\nArguments: Ada$/);
    },
  },
  {
    name: 'unknown skill: the skill row keeps the error state',
    tool: 'skill',
    args: { name: 'nope' },
    running: 'skill',
    settled: 'skill',
    errorCode: 'not_found',
    check: (run) => expect(run.card.body).toEqual({ kind: 'skill', name: 'nope', state: 'error' }),
  },
  {
    name: 'run_code: sub-calls (nested too) are derived with the same rules',
    tool: 'run_code',
    args: { description: 'Batch', code: program },
    running: 'code',
    settled: 'code',
    errorCode: '',
    check: (run) => {
      const id = run.callId;
      expect(run.card.body).toEqual({ kind: 'code', description: 'Batch', code: program });
      expect(run.text).toBe(
        'done\nResult: {"out":"sub\\n[exit code: 0]","missing":"not_found","inner":"Result: \\"No files match *.nothing in .\\""}',
      );
      const subs = run.events.flatMap((e) =>
        e.payload.case === 'codeDispatchStart' || e.payload.case === 'codeDispatch'
          ? [`${e.payload.case}:${e.payload.value.callId}`]
          : [],
      );
      expect(subs).toEqual([
        `codeDispatchStart:${id}.1`,
        `codeDispatch:${id}.1`,
        `codeDispatchStart:${id}.2`,
        `codeDispatch:${id}.2`,
        `codeDispatchStart:${id}.3`,
        `codeDispatchStart:${id}.3.1`,
        `codeDispatch:${id}.3.1`,
        `codeDispatch:${id}.3`,
      ]);
      const [bash, read, inner] = run.card.subCalls;
      expect(run.card.subCalls).toHaveLength(3);
      expect(bash?.body).toMatchObject({ kind: 'terminal', output: 'sub', state: 'ok' });
      expect(bash?.row).toMatchObject({ callId: `${id}.1`, nested: true });
      expect(read?.body).toEqual({ kind: 'generic' });
      expect(read?.row).toMatchObject({ state: 'error', errorCode: 'not_found', nested: true });
      expect(inner?.body).toEqual({
        kind: 'code',
        description: 'inner',
        code: 'return await tools.glob({ pattern: "*.nothing" })',
      });
      expect(inner?.subCalls.map((c) => [c.row.callId, c.row.tool, c.body.kind])).toEqual([
        [`${id}.3.1`, 'glob', 'generic'],
      ]);
      expect(run.runningCard.subCalls).toHaveLength(3);
    },
  },
  {
    name: 'run_code program error: the code row keeps the program',
    tool: 'run_code',
    args: { description: 'Boom', code: 'throw new Error("boom")' },
    running: 'code',
    settled: 'code',
    errorCode: 'program_error',
    check: (run) => expect(run.text).toMatch(/Error: boom$/),
  },
  {
    name: 'an unknown tool: Generic',
    tool: 'no_such_tool',
    args: { x: 1 },
    running: 'generic',
    settled: 'generic',
    errorCode: 'unknown_tool',
  },
];
