import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assistantMessage,
  chunk,
  events,
  extension,
  toolCall,
  toolResult,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import { encodeEventLine, encodeHeaderLine, formatVersion, type JournalHeader } from '@dsh/journal';

/** A fresh temp dir, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-journal-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A header for session `sessionId`. */
export function header(sessionId: string, init: Partial<JournalHeader> = {}): JournalHeader {
  return {
    formatVersion,
    sessionId,
    cwd: '/work',
    parentId: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    model: 'demo',
    title: '',
    ...init,
  };
}

/** The text of a journal file: header line, then one line per event, newline-terminated. */
export function journalText(sessionId: string, list: readonly SessionEvent[]): string {
  return [encodeHeaderLine(header(sessionId)), ...list.map(encodeEventLine)].join('\n') + '\n';
}

/** Writes `<dir>/<sessionId>.jsonl` holding `payloads` as events 0.. */
export async function writeJournal(
  dir: string,
  sessionId: string,
  payloads: readonly Payload[],
): Promise<SessionEvent[]> {
  const list = events(payloads);
  await writeFile(join(dir, `${sessionId}.jsonl`), journalText(sessionId, list));
  return list;
}

/**
 * A deterministic conversation of `turns` turns. Turn t: a user message, t % 3 chunks,
 * an assistant message with usage, and every other turn a `todo_write` call and result
 * (every fourth of them fails), plus an extension event every fifth turn.
 */
export function conversation(turns: number): Payload[] {
  const out: Payload[] = [];
  for (let t = 1; t <= turns; t += 1) {
    out.push(userMessage(`question ${t}`));
    for (let c = 0; c < t % 3; c += 1) {
      out.push(
        chunk(
          { turn: t },
          {
            case: 'textDelta',
            value: { $typeName: 'dsh.session.v1.TextDelta', index: 0, text: `part ${c}` },
          },
        ),
      );
    }
    out.push(assistantMessage({ turn: t }, [`answer ${t}`], usage(t, 2 * t)));
    if (t % 2 === 0) {
      const id = `call-${t}`;
      out.push(
        toolCall(
          id,
          'todo_write',
          { todos: [{ content: `task ${t}`, status: 'in_progress' }] },
          { turn: t },
        ),
      );
      out.push(
        t % 8 === 0
          ? toolResult(id, 'failed', { error: { code: 'boom', message: 'no' }, turn: t })
          : toolResult(id, 'ok', { turn: t }),
      );
    }
    if (t % 5 === 0) out.push(extension('plugin/note', { note: `n${t}`, nested: { a: [1, 2] } }));
  }
  return out;
}

/** Seqs of the message events (user/assistant messages) in `list`. */
export function messageSeqs(list: readonly SessionEvent[]): number[] {
  return list
    .filter((e) => e.payload.case === 'userMessage' || e.payload.case === 'assistantMessage')
    .map((e) => e.seq);
}
