import { createConversation, type ToolCallBlock } from '@dsh/card-models';
import { events, toolCall, toolResult, type Payload } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import type { ConversationItem } from '../src/conversation/conversation-item.js';
import { fileViewOf } from '../src/ui/file-view.js';

const facts = { cwd: '/repo', home: '/home/dev' };

/** One item per tool block of a window built from the payloads. */
function itemsOf(payloads: Payload[]): ConversationItem[] {
  const snapshot = createConversation().apply({ kind: 'replace', events: events(payloads) });
  const blocks: ToolCallBlock[] = snapshot.nodes.flatMap((node) =>
    node.kind === 'tool-result' ? [node.tool] : [],
  );
  return blocks.map((block) => ({ key: block.callId, lines: [], block, details: () => [] }));
}

const window = [
  toolCall('w1', 'write', { file_path: 'src/a.ts', content: 'x' }),
  toolResult('w1', 'Wrote src/a.ts'),
  toolCall('r1', 'read', { file_path: '/repo/src/a.ts' }),
  toolResult('r1', 'old read'),
  toolCall('e1', 'edit', { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' }),
  toolResult('e1', 'Edited src/a.ts'),
  toolCall('w2', 'write', { file_path: 'src/b.ts', content: 'b' }),
  toolResult('w2', 'Wrote src/b.ts'),
  toolCall('b1', 'bash', { command: 'ls' }),
  toolResult('b1', '[exit code: 0]'),
];

describe('fileViewOf()', () => {
  it.each([
    ['a write opens the latest read of its path', 'w1', 'r1'],
    ['an edit of the same file, relative or absolute, opens that read', 'e1', 'r1'],
    ['a file never read opens the latest card that touched it', 'w2', 'w2'],
    ['a card without a path opens nothing', 'b1', undefined],
  ])('%s', (_name, selected, expected) => {
    const items = itemsOf(window);
    const item = items.find((candidate) => candidate.key === selected);
    expect(item).toBeDefined();
    expect(fileViewOf(items, item!, facts)?.key).toBe(expected);
  });
});
