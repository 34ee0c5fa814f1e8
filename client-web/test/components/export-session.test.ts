import { fromJsonString } from '@bufbuild/protobuf';
import {
  assistantMessage,
  events,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { SessionEventSchema } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { sessionJsonl, sessionMarkdown } from '../../src/format/export-session.js';

const session = events([
  turnStart(1),
  userMessage('List the files'),
  assistantMessage({ turn: 1 }, ['Looking.', toolCallBlock('c1', 'bash', { command: 'ls' })]),
  toolCall('c1', 'bash', { command: 'ls' }, { turn: 1 }),
  toolResult('c1', 'a.txt\n```\nb.txt'),
  assistantMessage({ turn: 1, step: 1 }, ['Two files: `a.txt` and `b.txt`.']),
  turnEnd(1),
]);

describe('sessionMarkdown()', () => {
  it('writes messages, calls and output in fences the output cannot close', async () => {
    const markdown = sessionMarkdown('Files', session);
    expect(markdown).toContain('````\na.txt\n```\nb.txt\n````');
    await expect(markdown).toMatchFileSnapshot('__snapshots__/export-session.md');
  });
});

describe('sessionJsonl()', () => {
  it('writes one canonical JSON event per line that parses back to the same event', () => {
    const lines = sessionJsonl(session).trimEnd().split('\n');
    expect(lines).toHaveLength(session.length);
    expect(lines.map((line) => fromJsonString(SessionEventSchema, line))).toEqual(session);
  });
});
