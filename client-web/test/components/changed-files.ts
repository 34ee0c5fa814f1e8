import { computeHunks } from '@dsh/card-models/contract';
import {
  assistantMessage,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';

/** One first-party write or edit with the texts it recorded (`meta.diffs`). */
function change(
  turn: number,
  step: number,
  callId: string,
  name: 'write' | 'edit',
  path: string,
  oldText: string | null,
  newText: string,
): Payload[] {
  const args =
    name === 'write'
      ? { file_path: path, content: newText }
      : { file_path: path, old_string: oldText ?? '', new_string: newText };
  const meta = { diffs: [{ path, oldText, newText, hunks: computeHunks(oldText ?? '', newText) }] };
  return [
    assistantMessage({ turn, step }, [toolCallBlock(callId, name, args)]),
    toolCall(callId, name, args, { turn, step }),
    toolResult(callId, 'ok', { turn, step, meta }),
  ];
}

const v1 = 'export function add(a, b) {\n  return a + b;\n}\n';
const v2 = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
const v3 = `${v2}\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n`;

/**
 * Three turns that change two files: `src/math.ts` is created, typed and extended
 * (its edits chain, so its combined diff is the net change), `README.md` is written once.
 */
export const changedFilesSession: readonly Payload[] = [
  turnStart(1),
  userMessage('Add a math module'),
  ...change(1, 0, 'w1', 'write', 'src/math.ts', null, v1),
  assistantMessage({ turn: 1, step: 1 }, ['Created `src/math.ts`.']),
  turnEnd(1),
  turnStart(2),
  userMessage('Type it and document it'),
  ...change(2, 0, 'e1', 'edit', 'src/math.ts', v1, v2),
  ...change(2, 1, 'w2', 'write', 'README.md', null, '# Math\n\n`add(a, b)`\n'),
  assistantMessage({ turn: 2, step: 2 }, ['Typed and documented.']),
  turnEnd(2),
  turnStart(3),
  userMessage('Add sub'),
  ...change(3, 0, 'e2', 'write', 'src/math.ts', v2, v3),
  assistantMessage({ turn: 3, step: 1 }, ['Added `sub`.']),
  turnEnd(3),
];
