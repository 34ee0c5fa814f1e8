import type { JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import {
  addUsage,
  noTokens,
  tokensRestore,
  tokensSnapshot,
  type TokenUsageState,
} from './projections/token-usage.js';

/** Most characters of a title (a first prompt or a rename), trimmed. */
export const maxTitleChars = 200;

/**
 * What a session list shows of a session beyond its header, as a pure fold over its
 * events: a catalog keeps it per session, advancing it with every append, so a list
 * never opens a journal.
 */
export interface SessionFacts {
  /** The first user message's text, whitespace collapsed and cut to `maxTitleChars`. */
  readonly firstPrompt: string;
  /** The latest `session/renamed` title; undefined before any. */
  readonly renamed: string | undefined;
  /** The latest `session/archived` state. */
  readonly archived: boolean;
  /** Open approvals (`a:<id>`) and questions (`q:<id>`): requested, not yet resolved. */
  readonly pending: readonly string[];
  /** Token usage, as the `tokenUsage` projection sums it. */
  readonly usage: TokenUsageState;
  /** The model of the latest assistant message; empty before any. */
  readonly model: string;
  /** Queue ids of inputs waiting in the queue: queued (`input/queued`), not yet taken out. */
  readonly queued: readonly string[];
}

/** The facts of an empty session. */
export const noFacts: SessionFacts = {
  firstPrompt: '',
  renamed: undefined,
  archived: false,
  pending: [],
  usage: noTokens,
  model: '',
  queued: [],
};

/** The journal types `foldFacts` reads; every other event leaves the facts as they are. */
export const factTypes: ReadonlySet<string> = new Set([
  'user/message',
  'assistant/message',
  'context/compaction',
  'approval/requested',
  'approval/resolved',
  'question/requested',
  'question/resolved',
  'session/renamed',
  'session/archived',
  'input/queued',
  'input/unqueued',
]);

/** A title from free text: whitespace collapsed, trimmed, cut to `maxTitleChars`. */
export function titleText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxTitleChars ? flat : `${flat.slice(0, maxTitleChars - 1).trimEnd()}…`;
}

/** `facts` after `event`. */
export function foldFacts(facts: SessionFacts, event: SessionEvent): SessionFacts {
  const { payload } = event;
  switch (payload.case) {
    case 'userMessage': {
      if (facts.firstPrompt !== '') return facts;
      const text = payload.value.content
        .map((block) => (block.block.case === 'text' ? block.block.value.text : ''))
        .join(' ');
      return { ...facts, firstPrompt: titleText(text) };
    }
    case 'assistantMessage': {
      const { usage, model } = payload.value;
      return {
        ...facts,
        model: model !== '' ? model : facts.model,
        usage: usage === undefined ? facts.usage : addUsage(facts.usage, usage, true),
      };
    }
    case 'contextCompaction': {
      const { usage } = payload.value;
      return usage === undefined ? facts : { ...facts, usage: addUsage(facts.usage, usage, false) };
    }
    case 'approvalRequested':
      return open(facts, `a:${payload.value.approvalId}`);
    case 'approvalResolved':
      return close(facts, `a:${payload.value.approvalId}`);
    case 'questionRequested':
      return open(facts, `q:${payload.value.questionId}`);
    case 'questionResolved':
      return close(facts, `q:${payload.value.questionId}`);
    case 'sessionRenamed':
      return { ...facts, renamed: titleText(payload.value.title) };
    case 'sessionArchived':
      return { ...facts, archived: payload.value.archived };
    case 'inputQueued': {
      const { queueId } = payload.value;
      return facts.queued.includes(queueId)
        ? facts
        : { ...facts, queued: [...facts.queued, queueId] };
    }
    case 'inputUnqueued': {
      const { queueId } = payload.value;
      return facts.queued.includes(queueId)
        ? { ...facts, queued: facts.queued.filter((q) => q !== queueId) }
        : facts;
    }
    default:
      return facts;
  }
}

/** The title a list shows: a rename, else the header's title, else the first prompt. */
export function factsTitle(facts: SessionFacts, headerTitle: string): string {
  if (facts.renamed !== undefined && facts.renamed !== '') return facts.renamed;
  return headerTitle !== '' ? headerTitle : facts.firstPrompt;
}

/** The JSON form of facts, for a persisted catalog. */
export function factsSnapshot(facts: SessionFacts): JsonValue {
  return {
    firstPrompt: facts.firstPrompt,
    ...(facts.renamed === undefined ? {} : { renamed: facts.renamed }),
    archived: facts.archived,
    pending: [...facts.pending],
    usage: tokensSnapshot(facts.usage),
    model: facts.model,
    queued: [...facts.queued],
  };
}

/** Facts from `factsSnapshot` output; undefined when it does not have that shape. */
export function factsRestore(snapshot: JsonValue): SessionFacts | undefined {
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) {
    return undefined;
  }
  const { firstPrompt, renamed, archived, pending, usage, model, queued } = snapshot;
  if (typeof firstPrompt !== 'string' || typeof archived !== 'boolean') return undefined;
  if (typeof model !== 'string' || !isStrings(pending) || !isStrings(queued)) return undefined;
  if (renamed !== undefined && typeof renamed !== 'string') return undefined;
  try {
    const tokens = tokensRestore(usage!);
    return { firstPrompt, renamed, archived, pending, usage: tokens, model, queued };
  } catch {
    return undefined;
  }
}

function isStrings(value: JsonValue | undefined): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function open(facts: SessionFacts, id: string): SessionFacts {
  return facts.pending.includes(id) ? facts : { ...facts, pending: [...facts.pending, id] };
}

function close(facts: SessionFacts, id: string): SessionFacts {
  return facts.pending.includes(id)
    ? { ...facts, pending: facts.pending.filter((p) => p !== id) }
    : facts;
}
