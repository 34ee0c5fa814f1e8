import type { ContentBlock, Usage } from '@dsh/gen/content';
import type { SessionEvent } from '@dsh/gen/events';
import {
  compactionSummaryHeading,
  type ProviderMessage,
  type ProviderToolCall,
} from '@dsh/providers';
import { cutForModel } from './cut-for-model.js';
import { estimateTokens, messageTokens } from './token-estimate.js';

/** How a model history treats tool results. */
export interface ModelHistoryOptions {
  /** Largest tool result the model is sent whole, in estimated tokens; longer ones are cut. */
  readonly resultTokens: number;
  /**
   * Saves the whole text of a result cut for the model and returns the path the notice
   * names (undefined when it cannot be saved: the notice then names the journal only).
   */
  readonly saveResult?: (callId: string, text: string) => string | undefined;
}

/** One message of the history with the tool results that answer it, as a compaction cuts it. */
export interface HistoryEntry {
  /** Seq of the event the message came from: a compaction keeps entries from a seq on. */
  readonly seq: number;
  readonly messages: readonly ProviderMessage[];
  readonly tokens: number;
}

/** The summary of the latest compaction in a history. */
export interface HistorySummary {
  readonly text: string;
  /** Seq of the `context/compaction` event. */
  readonly seq: number;
  readonly keptFromSeq: number;
}

/**
 * The conversation the model is sent, folded from the session's events: from the latest
 * `context/compaction` on it is that compaction's summary, then the events it kept. User,
 * steering and context input become user messages; assistant messages keep their text and
 * tool calls (reasoning is not sent back); every tool call is answered by a tool message
 * right after its assistant message, so a journal cut short still makes a valid request.
 * A tool result over `resultTokens` is cut (head and tail, with a notice naming where the
 * whole of it is); the journal keeps it whole.
 */
export interface ModelHistory {
  add(events: readonly SessionEvent[]): void;
  /** The messages after the system prompt. */
  messages(): ProviderMessage[];
  /**
   * Estimated tokens of a request carrying these messages and `fixed` more (system prompt,
   * tools): the usage the provider reported for the latest step, plus an estimate of what
   * was added since; an estimate of everything when no report applies.
   */
  tokens(fixed: number): number;
  /** The entries after the summary, oldest first. */
  entries(): HistoryEntry[];
  /** How many entries follow the summary. */
  readonly entryCount: number;
  readonly summary: HistorySummary | undefined;
  /** The seq the next event will get (one past the last event added). */
  readonly nextSeq: number;
  /** The highest turn number seen (turn starts and compactions). */
  readonly lastTurn: number;
}

const missingResult = 'No result was recorded for this call (the host stopped while it ran).';

interface Entry {
  readonly seq: number;
  readonly message: ProviderMessage;
  readonly tokens: number;
  readonly calls: readonly ProviderToolCall[];
}

interface Result {
  readonly text: string;
  readonly tokens: number;
}

/** Creates an empty history; feed it the session's events in seq order from any compaction's cut. */
export function createModelHistory(options: ModelHistoryOptions): ModelHistory {
  let entries: Entry[] = [];
  const results = new Map<string, Result>();
  /** Call ids of the entries held: results of any other call are not the model's to see. */
  const calls = new Set<string>();
  let summary: HistorySummary | undefined;
  let summaryTokens = 0;
  /** Estimated tokens of the summary, the entries and their results. */
  let sum = 0;
  /** The latest reported usage that applies: its tokens and `sum` when it was reported. */
  let anchor: { reported: number; sum: number } | undefined;
  let nextSeq = 0;
  let lastTurn = 0;

  const push = (entry: Entry): void => {
    entries.push(entry);
    for (const call of entry.calls) calls.add(call.id);
    sum += entry.tokens;
  };

  const compact = (seq: number, text: string, keptFromSeq: number): void => {
    const kept = Math.min(keptFromSeq, seq);
    const from = entries.findIndex((e) => e.seq >= kept);
    entries = from === -1 ? [] : entries.slice(from);
    calls.clear();
    for (const entry of entries) for (const call of entry.calls) calls.add(call.id);
    for (const id of [...results.keys()]) if (!calls.has(id)) results.delete(id);
    summary = { text, seq, keptFromSeq: kept };
    summaryTokens = messageTokens({ role: 'user', content: summaryText(text) });
    sum = summaryTokens;
    for (const entry of entries) sum += entry.tokens;
    for (const result of results.values()) sum += result.tokens;
    anchor = undefined;
  };

  const settle = (seq: number, callId: string, text: string): void => {
    if (!calls.has(callId)) return;
    const cut = cutForModel(text, options.resultTokens, wholeAt(seq, callId, text));
    const previous = results.get(callId);
    const result = { text: cut, tokens: estimateTokens(cut) };
    results.set(callId, result);
    sum += result.tokens - (previous?.tokens ?? 0);
  };

  const wholeAt = (seq: number, callId: string, text: string): string => {
    const journal = `this session's journal keeps it whole (tool/result at seq ${seq})`;
    const path = options.saveResult?.(callId, text);
    return path === undefined
      ? `${journal}`
      : `the whole result (${text.length} characters) is saved in ${path}: read or grep it for the rest; ${journal}`;
  };

  return {
    add(events) {
      for (const event of events) {
        nextSeq = event.seq + 1;
        const { payload } = event;
        switch (payload.case) {
          case 'userMessage':
          case 'steeringMessage':
          case 'contextMessage': {
            const message = { role: 'user', content: textOf(payload.value.content) } as const;
            push({ seq: event.seq, message, tokens: messageTokens(message), calls: [] });
            break;
          }
          case 'assistantMessage': {
            const toolCalls: ProviderToolCall[] = [];
            for (const block of payload.value.content) {
              if (block.block.case === 'toolCall') {
                const { id, name, arguments: args } = block.block.value;
                toolCalls.push({ id, name, arguments: args });
              }
            }
            const message = {
              role: 'assistant',
              content: textOf(payload.value.content),
              toolCalls,
            } as const;
            push({ seq: event.seq, message, tokens: messageTokens(message), calls: toolCalls });
            anchor = reportedAnchor(payload.value.usage, sum) ?? anchor;
            lastTurn = Math.max(lastTurn, payload.value.turn);
            break;
          }
          case 'toolResult':
            settle(
              event.seq,
              payload.value.callId,
              textOf(payload.value.content) || errorText(payload.value.error?.message),
            );
            break;
          case 'contextCompaction':
            compact(event.seq, payload.value.summary, payload.value.keptFromSeq);
            lastTurn = Math.max(lastTurn, payload.value.turn);
            break;
          case 'turnStart':
          case 'turnEnd':
            lastTurn = Math.max(lastTurn, payload.value.turn);
            break;
          // Live output (toolOutput) is for people watching; the model gets the call's result only.
          case 'assistantChunk':
          case 'toolCall':
          case 'codeDispatchStart':
          case 'codeDispatch':
          case 'approvalRequested':
          case 'approvalResolved':
          case 'questionRequested':
          case 'questionResolved':
          case 'toolOutput':
          case 'agentError':
          case 'inputQueued':
          case 'inputUnqueued':
          case 'sessionRenamed':
          case 'sessionArchived':
          case 'extension':
          case undefined:
            break;
          default: {
            const unknownCase: never = payload;
            throw new Error(`unhandled event ${JSON.stringify(unknownCase)}`);
          }
        }
      }
    },
    messages() {
      const out: ProviderMessage[] = [];
      if (summary !== undefined) out.push({ role: 'user', content: summaryText(summary.text) });
      for (const entry of entries) out.push(...entryMessages(entry, results));
      return out;
    },
    tokens(fixed) {
      // A report under half the estimate is taken for a partial count (some local servers
      // report only the prompt tokens their cache did not hold) and not trusted.
      if (anchor === undefined || anchor.reported < (fixed + anchor.sum) / 2) return fixed + sum;
      return anchor.reported + (sum - anchor.sum);
    },
    entries() {
      return entries.map((entry) => {
        let tokens = entry.tokens;
        for (const call of entry.calls) tokens += results.get(call.id)?.tokens ?? 0;
        return { seq: entry.seq, messages: entryMessages(entry, results), tokens };
      });
    },
    get entryCount() {
      return entries.length;
    },
    get summary() {
      return summary;
    },
    get nextSeq() {
      return nextSeq;
    },
    get lastTurn() {
      return lastTurn;
    },
  };
}

/**
 * The anchor a step's usage sets: the tokens of its request and answer, which the next
 * request carries again; undefined when the step reported none.
 */
function reportedAnchor(
  usage: Usage | undefined,
  sum: number,
): { reported: number; sum: number } | undefined {
  if (usage === undefined) return undefined;
  const reported =
    usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens + usage.outputTokens;
  return reported === 0 ? undefined : { reported, sum };
}

function entryMessages(entry: Entry, results: ReadonlyMap<string, Result>): ProviderMessage[] {
  const out: ProviderMessage[] = [entry.message];
  for (const call of entry.calls) {
    out.push({
      role: 'tool',
      toolCallId: call.id,
      content: results.get(call.id)?.text ?? missingResult,
    });
  }
  return out;
}

/** The user message that carries a compaction summary. */
export function summaryText(summary: string): string {
  return `${compactionSummaryHeading}\n\n${summary}`;
}

function errorText(message: string | undefined): string {
  return message ? `Error: ${message}` : '';
}

/** The text blocks of a message joined; other blocks are left out. */
export function textOf(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.block.case === 'text' ? block.block.value.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
