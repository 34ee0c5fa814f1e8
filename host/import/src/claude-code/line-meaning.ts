import { isRecord, numberOf, stringOf, type JsonRecord } from '../json-fields.js';
import type { TurnNote } from './turn-notes.js';
import { readableText } from './user-text.js';

/**
 * What a transcript line other than a user or assistant message means for the
 * conversation. Claude Code documents these line types (and writes them in every
 * version since 1.0); a type not listed here is kept as a `claude-code/<type>` extension.
 */
export type LineMeaning =
  /** Folded into the turn's one bookkeeping row. */
  | { readonly kind: 'note'; readonly note: TurnNote }
  /** A context row of its own: something a person wants to see where it happened. */
  | {
      readonly kind: 'context';
      readonly envelope: string;
      readonly text: string;
      readonly meta?: JsonRecord;
    }
  /** Claude Code's record that the turn is over (with its duration). */
  | { readonly kind: 'turn-end'; readonly note: TurnNote }
  /**
   * A title for the session: `given` for one named for it (`/rename`, Claude Code's own
   * title), else a `summary` line (which may describe an earlier conversation).
   */
  | { readonly kind: 'title'; readonly title: string; readonly given: boolean }
  /** A sub-agent started by the Task call `callId` runs as agent `agentId`. */
  | { readonly kind: 'agent'; readonly agentId: string; readonly callId: string }
  /** Live output of the running Bash call `callId` (the whole output so far). */
  | { readonly kind: 'shell-progress'; readonly callId: string; readonly output: string }
  /** Nothing to show: the line is bookkeeping whose facts live elsewhere. */
  | { readonly kind: 'none' }
  /** A line type Claude Code does not document: kept as an extension event. */
  | { readonly kind: 'extension' };

const none: LineMeaning = { kind: 'none' };

/** Envelopes of the context rows an import writes, so clients can label them. */
export const contextEnvelopes = {
  notes: 'claude-code/turn-notes',
  compaction: 'claude-code/compaction',
  compactSummary: 'claude-code/compact-summary',
  meta: 'claude-code/meta',
  hookContext: 'claude-code/hook-context',
  command: 'claude-code/command',
  taskNotification: 'claude-code/task-notification',
  notice: 'claude-code/notice',
  pullRequest: 'claude-code/pull-request',
  subagent: 'claude-code/subagent',
} as const;

/** The meaning of a line of type `type` (not `user` or `assistant`). */
export function lineMeaning(type: string, line: JsonRecord): LineMeaning {
  switch (type) {
    case 'system':
      return systemMeaning(line);
    case 'progress':
      return progressMeaning(line);
    case 'summary':
    case 'custom-title':
    case 'ai-title': {
      const title =
        stringOf(line, 'customTitle') ?? stringOf(line, 'aiTitle') ?? stringOf(line, 'summary');
      if (title === undefined || title.trim() === '') return none;
      return { kind: 'title', title, given: type !== 'summary' };
    }
    case 'permission-mode':
    case 'mode': {
      const mode = stringOf(line, 'permissionMode') ?? stringOf(line, 'mode');
      return mode === undefined
        ? none
        : { kind: 'note', note: { kind: 'change', text: `Mode: ${mode}` } };
    }
    case 'pr-link': {
      const url = stringOf(line, 'prUrl') ?? '';
      const number = numberOf(line, 'prNumber');
      const repo = stringOf(line, 'prRepository') ?? '';
      const text = `Pull request${number === undefined ? '' : ` #${number}`}${repo === '' ? '' : ` in ${repo}`}: ${url}`;
      return { kind: 'context', envelope: contextEnvelopes.pullRequest, text, meta: { url } };
    }
    case 'file-history-snapshot':
    case 'queue-operation':
    case 'agent-name':
    case 'agent-setting':
    case 'last-prompt':
    case 'bridge-session':
    case 'attachment':
    case 'tag':
      return none;
    default:
      return { kind: 'extension' };
  }
}

function systemMeaning(line: JsonRecord): LineMeaning {
  const subtype = stringOf(line, 'subtype') ?? '';
  const content = stringOf(line, 'content') ?? '';
  switch (subtype) {
    case 'turn_duration':
      return {
        kind: 'turn-end',
        note: { kind: 'duration', ms: numberOf(line, 'durationMs') ?? 0 },
      };
    case 'stop_hook_summary':
      return { kind: 'note', note: stopHookNote(line) };
    case 'api_error':
      return { kind: 'note', note: { kind: 'problem', text: apiErrorText(line) } };
    case 'compact_boundary': {
      const meta = isRecord(line.compactMetadata) ? line.compactMetadata : {};
      const trigger = stringOf(meta, 'trigger');
      const tokens = numberOf(meta, 'preTokens');
      const detail = [
        trigger,
        tokens === undefined ? undefined : `${tokens.toLocaleString('en-US')} tokens before`,
      ]
        .filter((part) => part !== undefined)
        .join(', ');
      return {
        kind: 'context',
        envelope: contextEnvelopes.compaction,
        text: `Conversation compacted${detail === '' ? '' : ` (${detail})`}`,
        meta,
      };
    }
    case 'local_command':
      return content.trim() === ''
        ? none
        : { kind: 'context', envelope: contextEnvelopes.command, text: readableText(content) };
    case 'microcompact_boundary':
      return {
        kind: 'note',
        note: { kind: 'change', text: 'Older tool results cleared from context' },
      };
    case 'bridge_status':
      return { kind: 'note', note: { kind: 'change', text: content } };
    default:
      // `informational`, `away_summary` and lines without a subtype (notices such as a
      // model fallback) carry text meant for the person.
      return content.trim() === ''
        ? { kind: 'note', note: { kind: 'line' } }
        : {
            kind: 'context',
            envelope: contextEnvelopes.notice,
            text: readableText(content),
            meta: { subtype, level: stringOf(line, 'level') ?? '' },
          };
  }
}

function progressMeaning(line: JsonRecord): LineMeaning {
  const data = isRecord(line.data) ? line.data : {};
  switch (stringOf(data, 'type')) {
    case 'hook_progress': {
      const name = stringOf(data, 'hookName') ?? stringOf(data, 'hookEvent') ?? 'hook';
      return { kind: 'note', note: { kind: 'hook', name } };
    }
    case 'agent_progress': {
      const agentId = stringOf(data, 'agentId');
      const callId = stringOf(line, 'parentToolUseID');
      return agentId === undefined || callId === undefined
        ? none
        : { kind: 'agent', agentId, callId };
    }
    case 'bash_progress': {
      const callId = stringOf(line, 'parentToolUseID') ?? stringOf(line, 'toolUseID');
      const output = stringOf(data, 'fullOutput') ?? stringOf(data, 'output');
      return callId === undefined || output === undefined
        ? none
        : { kind: 'shell-progress', callId, output };
    }
    default:
      // mcp_progress, waiting_for_task, query_update, search_results_received and the
      // like report a running call whose result follows.
      return none;
  }
}

function stopHookNote(line: JsonRecord): TurnNote {
  const errors = Array.isArray(line.hookErrors) ? line.hookErrors : [];
  const reason = stringOf(line, 'stopReason') ?? '';
  if (line.preventedContinuation === true) {
    return {
      kind: 'problem',
      text: `A stop hook kept the turn going${reason === '' ? '' : `: ${reason}`}`,
    };
  }
  if (errors.length > 0) {
    const first = errors[0];
    const text = typeof first === 'string' ? first : JSON.stringify(first);
    return {
      kind: 'problem',
      text: `Stop hook error${errors.length > 1 ? `s (${errors.length})` : ''}: ${text}`,
    };
  }
  return { kind: 'hook', name: 'Stop' };
}

function apiErrorText(line: JsonRecord): string {
  const error = isRecord(line.error) ? line.error : {};
  const inner = isRecord(error.error) ? error.error : {};
  const deeper = isRecord(inner.error) ? inner.error : {};
  const status = numberOf(error, 'status');
  const message =
    stringOf(deeper, 'message') ??
    stringOf(inner, 'message') ??
    stringOf(deeper, 'type') ??
    stringOf(inner, 'type') ??
    '';
  const attempt = numberOf(line, 'retryAttempt');
  const max = numberOf(line, 'maxRetries');
  const retry =
    attempt === undefined ? '' : `, retry ${attempt}${max === undefined ? '' : ` of ${max}`}`;
  return `API error${status === undefined ? '' : ` ${status}`}${message === '' ? '' : `: ${message}`}${retry}`;
}
