import { describe, expect, it } from 'vitest';
import { deliverables, deliverablesByTurn } from '../../src/cards/deliverables.js';
import type {
  ConversationNode,
  ConversationSnapshot,
  ToolCallBlock,
} from '../../src/conversation/types.js';
import { asStopped, posix, text, toolBlock, windows } from './tool-block.js';

/** An assistant node at `seq` carrying tool calls. */
function assistant(seq: number, tools: readonly ToolCallBlock[], turn = 1): ConversationNode {
  return {
    kind: 'assistant',
    seq,
    time: undefined,
    turn,
    step: 0,
    blocks: tools.map((tool) => ({ kind: 'tool-call', callId: tool.callId, tool })),
    usage: undefined,
    interrupted: false,
  };
}

/** A turn: one step calling `tools` at seq 1, results at 2.., and a closing message after them. */
function turn(tools: readonly ToolCallBlock[], turnNumber = 1): ConversationNode[] {
  const closing = 100 * turnNumber + 99;
  return [assistant(100 * turnNumber, tools, turnNumber), assistant(closing, [], turnNumber)];
}

let nextSeq = 0;
/** A successful call settled before the closing message. */
function ok(name: string, args: unknown, turnNumber = 1): ToolCallBlock {
  nextSeq += 1;
  return toolBlock(name, args, {
    callId: `c${nextSeq}`,
    turn: turnNumber,
    seq: 100 * turnNumber,
    result: { content: 'ok', seq: 100 * turnNumber + nextSeq },
  });
}

const paths = (nodes: readonly ConversationNode[], t = 1) =>
  deliverables(nodes, t, posix).map((d) => d.displayPath);

describe('deliverables()', () => {
  it.each([
    {
      why: 'successful write: file_path',
      call: ok('write', { file_path: '/home/ada/project/a.ts', content: '' }),
      want: ['a.ts'],
    },
    {
      why: 'successful edit: file_path',
      call: ok('edit', { file_path: 'b.ts', old_string: 'x', new_string: 'y' }),
      want: ['b.ts'],
    },
    {
      why: 'str_replace_editor create: path',
      call: ok('str_replace_editor', { command: 'create', path: 'c.ts', file_text: '' }),
      want: ['c.ts'],
    },
    {
      why: 'str_replace_editor str_replace: path',
      call: ok('str_replace_editor', { command: 'str_replace', path: 'd.ts', old_str: 'a' }),
      want: ['d.ts'],
    },
    {
      why: 'str_replace_editor insert: path',
      call: ok('str_replace_editor', {
        command: 'insert',
        path: 'e.ts',
        insert_line: 1,
        new_str: 'x',
      }),
      want: ['e.ts'],
    },
    {
      why: 'str_replace_editor view: nothing',
      call: ok('str_replace_editor', { command: 'view', path: 'f.ts' }),
      want: [],
    },
    {
      why: 'str_replace_editor without command: nothing',
      call: ok('str_replace_editor', { path: 'f.ts' }),
      want: [],
    },
    { why: 'other tools: nothing', call: ok('bash', { command: 'touch g.ts' }), want: [] },
    { why: 'read: nothing', call: ok('read', { file_path: 'h.ts' }), want: [] },
    {
      why: 'a failed write',
      call: toolBlock(
        'write',
        { file_path: 'i.ts', content: '' },
        { seq: 100, result: { isError: true, seq: 101 } },
      ),
      want: [],
    },
    {
      why: 'an interrupted write',
      call: asStopped(ok('write', { file_path: 'j.ts', content: '' })),
      want: [],
    },
    {
      why: 'a running write',
      call: toolBlock('write', { file_path: 'k.ts', content: '' }, { seq: 100 }),
      want: [],
    },
    { why: 'malformed arguments', call: ok('write', '{"file_path": "l.ts"'), want: [] },
    { why: 'a missing path', call: ok('edit', { old_string: 'a', new_string: 'b' }), want: [] },
    { why: 'an empty path', call: ok('write', { file_path: '', content: '' }), want: [] },
    {
      why: 'a path that is not text',
      call: ok('write', { file_path: ['m.ts'], content: '' }),
      want: [],
    },
    {
      why: 'a call without its head',
      call: toolBlock(
        'write',
        { file_path: 'n.ts' },
        { head: false, seq: 100, result: { seq: 101 } },
      ),
      want: [],
    },
  ])('$why', ({ call, want }) => {
    expect(paths(turn([call]))).toEqual(want);
  });

  it('ignores orphan results shown on their own', () => {
    const orphan = toolBlock(
      'write',
      { file_path: 'o.ts' },
      { head: false, seq: 150, result: { seq: 150 } },
    );
    const nodes: ConversationNode[] = [
      { kind: 'tool-result', seq: 150, time: undefined, tool: orphan },
      assistant(199, []),
    ];
    expect(paths(nodes)).toEqual([]);
  });

  it('ignores code-dispatch sub-calls (only top-level calls count)', () => {
    const child = { ...ok('write', { file_path: 'p.ts', content: '' }), parentCallId: 'c-parent' };
    const parent = { ...ok('run_code', { code: '', description: 'x' }), subCalls: [child] };
    expect(paths(turn([parent]))).toEqual([]);
  });

  it('keeps first-seen order and drops repeats of the same file (also spelled differently)', () => {
    const calls = [
      ok('write', { file_path: 'src/b.ts', content: '' }),
      ok('edit', { file_path: '/home/ada/project/src/a.ts', old_string: 'a', new_string: 'b' }),
      ok('edit', { file_path: './src/b.ts', old_string: 'a', new_string: 'b' }),
      ok('str_replace_editor', {
        command: 'insert',
        path: 'src/../src/a.ts',
        insert_line: 0,
        new_str: '',
      }),
    ];
    expect(deliverables(turn(calls), 1, posix)).toEqual([
      { path: 'src/b.ts', absolutePath: '/home/ada/project/src/b.ts', displayPath: 'src/b.ts' },
      {
        path: '/home/ada/project/src/a.ts',
        absolutePath: '/home/ada/project/src/a.ts',
        displayPath: 'src/a.ts',
      },
    ]);
  });

  it('excludes results settled after the closing assistant message of the turn', () => {
    const before = toolBlock(
      'write',
      { file_path: 'before.ts', content: '' },
      { seq: 100, result: { seq: 105 } },
    );
    const after = toolBlock(
      'write',
      { file_path: 'after.ts', content: '' },
      { seq: 100, result: { seq: 130 } },
    );
    expect(paths([assistant(100, [before, after]), assistant(120, [])])).toEqual(['before.ts']);
  });

  it('in a turn still calling tools, the latest assistant message closes it for now', () => {
    const settledEarlier = toolBlock(
      'write',
      { file_path: 'one.ts', content: '' },
      { seq: 100, result: { seq: 101 } },
    );
    const latest = toolBlock(
      'write',
      { file_path: 'two.ts', content: '' },
      { seq: 110, result: { seq: 111 } },
    );
    expect(paths([assistant(100, [settledEarlier]), assistant(110, [latest])])).toEqual(['one.ts']);
  });

  it('gives nothing for a turn without an assistant message in the window', () => {
    expect(deliverables([], 1, posix)).toEqual([]);
    expect(paths(turn([ok('write', { file_path: 'x.ts', content: '' })]), 2)).toEqual([]);
  });

  it('keeps turns apart; the same file counts once per turn', () => {
    const nodes = [
      ...turn([ok('write', { file_path: 'a.ts', content: '' }, 1)], 1),
      {
        kind: 'user',
        seq: 150,
        time: undefined,
        content: [text('again')],
        source: 'user',
      } as const,
      ...turn(
        [
          ok('edit', { file_path: 'a.ts', old_string: '', new_string: 'x' }, 2),
          ok('write', { file_path: 'b.ts', content: '' }, 2),
        ],
        2,
      ),
    ];
    const byTurn = deliverablesByTurn(nodes, posix);
    expect([...byTurn].map(([t, list]) => [t, list.map((d) => d.displayPath)])).toEqual([
      [1, ['a.ts']],
      [2, ['a.ts', 'b.ts']],
    ]);
  });

  it('accepts a snapshot as well as a node list', () => {
    const nodes = turn([ok('write', { file_path: 'snap.ts', content: '' })]);
    const snapshot: ConversationSnapshot = {
      firstSeq: 0,
      endSeq: 300,
      nodes,
      partial: undefined,
      runningCalls: [],
      pending: [],
      resolvedQuestions: new Map(),
      openTurn: undefined,
      queueLog: [],
    };
    expect(deliverables(snapshot, 1, posix)).toEqual(deliverables(nodes, 1, posix));
    expect(deliverables(snapshot, 1, posix)).toHaveLength(1);
  });

  it('treats UNC paths that differ only in case as one file', () => {
    const nodes = turn([
      ok('write', { file_path: '\\\\srv\\share\\Out.txt', content: '' }),
      ok('edit', { file_path: '\\\\SRV\\share\\out.txt', old_string: 'a', new_string: 'b' }),
    ]);
    expect(deliverables(nodes, 1, windows).map((d) => d.absolutePath)).toEqual([
      '\\\\srv\\share\\Out.txt',
    ]);
  });

  it('resolves and shows Windows paths', () => {
    const nodes = turn([
      ok('write', { file_path: 'src\\app.cs', content: '' }),
      ok('edit', {
        file_path: 'c:\\Users\\ada\\project\\SRC\\app.cs',
        old_string: 'a',
        new_string: 'b',
      }),
      ok('write', { file_path: 'C:\\Users\\ada\\todo.md', content: '' }),
    ]);
    expect(deliverables(nodes, 1, windows)).toEqual([
      {
        path: 'src\\app.cs',
        absolutePath: 'C:\\Users\\ada\\project\\src\\app.cs',
        displayPath: 'src\\app.cs',
      },
      {
        path: 'C:\\Users\\ada\\todo.md',
        absolutePath: 'C:\\Users\\ada\\todo.md',
        displayPath: '~\\todo.md',
      },
    ]);
  });
});
