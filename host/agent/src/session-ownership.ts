import { create, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { RespondRequestSchema, type PromptMode, type RespondRequest } from '@dsh/gen/service';
import { JournalError, type JournalErrorKind } from '@dsh/journal';
import { AgentError, type AgentErrorKind } from './agent-error.js';
import type { QueuedInputFacts } from './input-queue.js';

/** What the owner of a session answered to a forwarded input, or the error it refused it with. */
export type ForwardedAnswer =
  | { readonly ok: JsonValue }
  | { readonly error: { readonly name: string; readonly kind: string; readonly message: string } };

/**
 * Which host runs each session's agent when several hosts share one store (a lease per
 * session), and the route of input to it. A store shared by hosts implements it (the
 * PostgreSQL one does); a host alone on its store needs none. The runtime claims the
 * lease before it runs a session, gives it back when the session is idle, and forwards
 * input for a session another host owns.
 */
export interface SessionOwnership {
  /** Takes (or renews) the session's lease for this host, or names the host that holds it. */
  claim(
    sessionId: string,
  ): Promise<{ readonly owned: true } | { readonly owned: false; readonly owner: string }>;
  /** Gives the lease back; false when it is kept (input is waiting for this host). */
  release(sessionId: string): Promise<boolean>;
  /** Stores an input for the session's owner durably and resolves with its answer. */
  forward(sessionId: string, body: JsonValue): Promise<ForwardedAnswer>;
  /** Tells every host whether this host runs the session now (best effort). */
  announce(sessionId: string, running: boolean): void;
  /** True while another host runs the session. */
  runningElsewhere(sessionId: string): boolean;
  /** Starts running inputs forwarded to this host, and hearing of leases it takes or loses. */
  serve(handlers: {
    input(sessionId: string, body: JsonValue): Promise<ForwardedAnswer>;
    /** This host took the lease of a session nobody runs: open it (closing a dangling turn). */
    adopted(sessionId: string): void;
    /** Another host took a lease this host had: stop running the session here. */
    lost(sessionId: string): void;
    /** The session started or stopped running on another host. */
    status(sessionId: string, running: boolean): void;
  }): void;
}

/** One input for a session's agent, as it travels to the host that owns the session. */
export type AgentInput =
  | { readonly kind: 'prompt'; readonly content: ContentBlock[]; readonly mode: PromptMode }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'respond'; readonly response: RespondRequest['response'] }
  | { readonly kind: 'compact'; readonly instruction: string }
  | { readonly kind: 'editQueue'; readonly queueId: string; readonly content: ContentBlock[] };

const blocksJson = (blocks: readonly ContentBlock[]): JsonValue[] =>
  blocks.map((b) => toJson(ContentBlockSchema, b));
const blocksOf = (json: unknown): ContentBlock[] =>
  (json as JsonValue[]).map((b) => fromJson(ContentBlockSchema, b));

/** An input as JSON for the store (content blocks in their proto JSON form). */
export function encodeInput(input: AgentInput): JsonValue {
  switch (input.kind) {
    case 'prompt':
      return { kind: 'prompt', content: blocksJson(input.content), mode: input.mode };
    case 'cancel':
      return { kind: 'cancel' };
    case 'respond':
      return {
        kind: 'respond',
        request: toJson(
          RespondRequestSchema,
          create(RespondRequestSchema, { response: input.response }),
        ),
      };
    case 'compact':
      return { kind: 'compact', instruction: input.instruction };
    case 'editQueue':
      return { kind: 'editQueue', queueId: input.queueId, content: blocksJson(input.content) };
    default:
      return input satisfies never;
  }
}

/** The input `encodeInput` stored; an `AgentError` for JSON no host of this version writes. */
export function decodeInput(body: JsonValue): AgentInput {
  const json = body as Record<string, unknown>;
  switch (json.kind) {
    case 'prompt':
      return { kind: 'prompt', content: blocksOf(json.content), mode: json.mode as PromptMode };
    case 'cancel':
      return { kind: 'cancel' };
    case 'respond':
      return {
        kind: 'respond',
        response: fromJson(RespondRequestSchema, json.request as JsonValue).response,
      };
    case 'compact':
      return { kind: 'compact', instruction: String(json.instruction) };
    case 'editQueue':
      return { kind: 'editQueue', queueId: String(json.queueId), content: blocksOf(json.content) };
    default:
      throw new AgentError(
        'invalid_argument',
        `a forwarded input of kind ${JSON.stringify(json.kind)} is unknown to this host: ` +
          'run the same dsh version on every host',
      );
  }
}

/** What each input kind answers, by kind. */
export interface InputAnswers {
  prompt: { started: boolean; queuePosition: number; queueId: string };
  cancel: { cancelled: boolean; cleared: number; clearedInputs: QueuedInputFacts[] };
  respond: undefined;
  compact: { started: boolean };
  editQueue: { previous: ContentBlock[] };
}

/** An answer as JSON for the store; errors keep their type, kind and message. */
export function encodeAnswer(kind: AgentInput['kind'], value: unknown): ForwardedAnswer {
  switch (kind) {
    case 'cancel': {
      const v = value as InputAnswers['cancel'];
      return {
        ok: {
          ...v,
          clearedInputs: v.clearedInputs.map((i) => ({ ...i, content: blocksJson(i.content) })),
        },
      };
    }
    case 'editQueue':
      return { ok: { previous: blocksJson((value as InputAnswers['editQueue']).previous) } };
    case 'respond':
      return { ok: null };
    case 'prompt':
    case 'compact':
      return { ok: value as JsonValue };
    default:
      return kind satisfies never;
  }
}

/** The error an input was refused with, as JSON for the store. */
export function encodeError(error: unknown): ForwardedAnswer {
  const e = error as { name?: unknown; kind?: unknown; message?: unknown };
  const known = e.name === 'AgentError' || e.name === 'JournalError';
  return {
    error: {
      name: known ? String(e.name) : 'JournalError',
      kind: known ? String(e.kind) : 'unavailable',
      message: typeof e.message === 'string' ? e.message : String(error),
    },
  };
}

/** The value the owner answered, or throws the error it refused the input with. */
export function decodeAnswer<K extends AgentInput['kind']>(
  kind: K,
  answer: ForwardedAnswer,
): InputAnswers[K] {
  if ('error' in answer) {
    const { name, kind: errorKind, message } = answer.error;
    if (name === 'AgentError') throw new AgentError(errorKind as AgentErrorKind, message);
    throw new JournalError(errorKind as JournalErrorKind, message);
  }
  const ok = answer.ok as Record<string, unknown>;
  switch (kind) {
    case 'cancel':
      return {
        ...(ok as unknown as InputAnswers['cancel']),
        clearedInputs: (ok.clearedInputs as Record<string, unknown>[]).map((i) => ({
          ...(i as unknown as QueuedInputFacts),
          content: blocksOf(i.content),
        })),
      } as InputAnswers[K];
    case 'editQueue':
      return { previous: blocksOf(ok.previous) } as InputAnswers[K];
    default:
      return (kind === 'respond' ? undefined : ok) as InputAnswers[K];
  }
}
