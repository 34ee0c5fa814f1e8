import { open } from 'node:fs/promises';
import { isRecord } from './json-fields.js';

/** The formats the importers read. */
export type TranscriptFormat = 'claude-code' | 'codex';

/** What the start of a file says it is. */
export type SniffResult =
  | { readonly kind: 'format'; readonly format: TranscriptFormat }
  /** No complete line yet (a file being created): look again later. */
  | { readonly kind: 'empty' }
  /** Complete lines, none of a known format: the reason, naming the fix. */
  | { readonly kind: 'unknown'; readonly reason: string };

const sniffBytes = 1 << 20;
const sniffLines = 20;

/** Line types of Claude Code transcripts (every documented entry type). */
const claudeTypes: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'summary',
  'system',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'custom-title',
  'ai-title',
  'agent-name',
  'agent-setting',
  'permission-mode',
  'mode',
  'pr-link',
  'last-prompt',
  'bridge-session',
  'attachment',
  'tag',
]);

/** Item types of Codex rollout lines (`{timestamp, type, payload}`). */
const codexTypes: ReadonlySet<string> = new Set([
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
]);

/** The format of one parsed line, or `undefined` when it fits neither. */
export function lineFormat(value: unknown): TranscriptFormat | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  if (codexTypes.has(value.type) && isRecord(value.payload)) return 'codex';
  if (claudeTypes.has(value.type)) return 'claude-code';
  if (typeof value.sessionId === 'string' && typeof value.uuid === 'string') return 'claude-code';
  return undefined;
}

/**
 * Reads the first complete lines of a file (at most 20, within 1 MiB) and tells which
 * transcript format they are: the first line of a known format decides. Lines that are
 * not JSON or of no known format make the file `unknown`.
 */
export async function sniffTranscript(path: string): Promise<SniffResult> {
  const handle = await open(path, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(buffer, 0, sniffBytes, 0);
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  const complete = text.lastIndexOf('\n');
  const lines = (complete === -1 ? '' : text.slice(0, complete))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, sniffLines);
  if (lines.length === 0) return { kind: 'empty' };
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const format = lineFormat(value);
    if (format !== undefined) return { kind: 'format', format };
  }
  return {
    kind: 'unknown',
    reason: 'its lines are not Claude Code transcript entries nor Codex rollout items',
  };
}

/** Why a file of format `found` is refused by the importer of `wanted`, naming the fix. */
export function wrongFormat(found: TranscriptFormat, wanted: TranscriptFormat): string {
  if (found === 'codex') {
    return 'it is a Codex rollout, not a Claude Code transcript: import it with "dsh import codex"';
  }
  return wanted === 'codex'
    ? 'it is a Claude Code transcript, not a Codex rollout: import it with "dsh import claude-code"'
    : `it is not a ${wanted} transcript`;
}
