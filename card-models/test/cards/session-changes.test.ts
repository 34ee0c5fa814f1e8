import { describe, expect, it } from 'vitest';
import { computeHunks } from '../../src/contract/hunks.js';
import { combinedDiff, sessionChanges } from '../../src/cards/session-changes.js';
import type { ConversationNode, ToolCallBlock } from '../../src/conversation/types.js';
import { posix, toolBlock } from './tool-block.js';

function assistant(seq: number, tools: readonly ToolCallBlock[], turn: number): ConversationNode {
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

/** A first-party write or edit that recorded its texts in `meta.diffs`. */
function applied(
  id: string,
  name: 'write' | 'edit',
  path: string,
  oldText: string | null,
  newText: string,
  seq: number,
  turn = 1,
): ToolCallBlock {
  const args =
    name === 'write'
      ? { file_path: path, content: newText }
      : { file_path: path, old_string: oldText ?? '', new_string: newText };
  const meta = { diffs: [{ path, oldText, newText, hunks: computeHunks(oldText ?? '', newText) }] };
  return toolBlock(name, args, { callId: id, turn, seq, result: { content: 'ok', seq, meta } });
}

const paths = (nodes: ConversationNode[]) =>
  sessionChanges(nodes, posix).map((c) => [c.displayPath, c.edits.map((e) => e.callId)]);

describe('sessionChanges()', () => {
  it.each([
    {
      why: 'newest change first, edits oldest first, one entry per resolved path',
      nodes: [
        assistant(10, [applied('a1', 'write', 'a.ts', null, 'one\n', 11)], 1),
        assistant(20, [applied('b1', 'write', '/home/ada/project/b.ts', null, 'b\n', 21)], 1),
        assistant(30, [applied('a2', 'write', '/home/ada/project/a.ts', 'one\n', 'two\n', 31)], 2),
      ],
      want: [
        ['a.ts', ['a1', 'a2']],
        ['b.ts', ['b1']],
      ],
    },
    {
      why: 'failed and running calls changed nothing',
      nodes: [
        assistant(
          10,
          [
            toolBlock('write', { file_path: 'x.ts', content: 'x' }, { callId: 'run', seq: 10 }),
            toolBlock(
              'edit',
              { file_path: 'y.ts', old_string: 'a', new_string: 'b' },
              { callId: 'bad', seq: 10, result: { content: 'no match', isError: true } },
            ),
          ],
          1,
        ),
      ],
      want: [],
    },
    {
      why: 'reads and commands are not changes',
      nodes: [
        assistant(
          10,
          [toolBlock('read', { file_path: 'a.ts' }, { callId: 'r', result: { content: 'x' } })],
          1,
        ),
      ],
      want: [],
    },
  ])('$why', ({ nodes, want }) => {
    expect(paths(nodes)).toEqual(want);
  });

  it('names the turns a file changed in', () => {
    const nodes = [
      assistant(10, [applied('a1', 'write', 'a.ts', null, '1\n', 11, 1)], 1),
      assistant(30, [applied('a2', 'write', 'a.ts', '1\n', '2\n', 31, 3)], 3),
    ];
    const [change] = sessionChanges(nodes, posix);
    expect(change?.turns).toEqual([1, 3]);
    expect(change?.created).toBe(true);
  });
});

describe('combinedDiff()', () => {
  it('is the net change when every edit starts where the previous one ended', () => {
    const nodes = [
      assistant(10, [applied('a1', 'write', 'a.ts', 'keep\nold\n', 'keep\nmid\n', 11)], 1),
      assistant(20, [applied('a2', 'edit', 'a.ts', 'keep\nmid\n', 'keep\nnew\n', 21)], 2),
    ];
    const diff = combinedDiff(sessionChanges(nodes, posix)[0]!);
    expect(diff.kind).toBe('net');
    expect(diff.hunks.flatMap((h) => h.lines.map((l) => `${l.kind} ${l.text}`))).toEqual([
      'context keep',
      'removed old',
      'added new',
    ]);
    expect([diff.added, diff.removed]).toEqual([1, 1]);
  });

  it('lists every edit in order when the chain breaks (the file changed in between)', () => {
    const nodes = [
      assistant(10, [applied('a1', 'write', 'a.ts', null, 'x\n', 11)], 1),
      assistant(20, [applied('a2', 'write', 'a.ts', 'changed by a command\n', 'y\n', 21)], 2),
    ];
    const diff = combinedDiff(sessionChanges(nodes, posix)[0]!);
    expect(diff.kind).toBe('sequence');
    expect(diff.hunks).toHaveLength(2);
    expect([diff.added, diff.removed]).toEqual([2, 1]);
  });

  it('lists edits without recorded texts (imported calls) from their arguments', () => {
    const edit = toolBlock(
      'str_replace_editor',
      { command: 'str_replace', path: 'a.ts', old_str: 'a', new_str: 'b' },
      { callId: 'e', seq: 10, result: { content: 'ok', seq: 11 } },
    );
    const diff = combinedDiff(sessionChanges([assistant(10, [edit], 1)], posix)[0]!);
    expect(diff.kind).toBe('sequence');
    expect([diff.added, diff.removed]).toEqual([1, 1]);
  });
});
