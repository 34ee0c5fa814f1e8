import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { ContentBlock, Usage } from '@dsh/gen/content';
import type {
  CompactionReason,
  Question,
  QuestionResolved,
  SessionEvent,
  ToolError,
  TurnEndReason,
  UnqueueReason,
} from '@dsh/gen/events';

/**
 * The settled state of a tool call: `ok` and `error` come from its result, `stopped`
 * from a cancelled turn that left it open or from a result whose structured error code
 * is `interrupted` (the same Stop, recorded by the host), `running` while no result exists.
 */
export type ToolCallStatus = 'running' | 'ok' | 'error' | 'stopped';

/** The result of a tool call as a card model sees it. */
export interface ToolResultFacts {
  /** Model-visible content blocks. */
  readonly content: readonly ContentBlock[];
  readonly isError: boolean;
  readonly error: ToolError | undefined;
  /** Tool-private metadata JSON text; '' when absent. Always '' for sub-calls. */
  readonly metaJson: string;
  /** Seq of the `tool/result` or `tool/code-dispatch` event. */
  readonly seq: number;
}

/**
 * The live output of a running call: the text of its `tool/output` deltas in seq order.
 * `chunks` is append-only and shared by every version of one call's block, so a new
 * delta costs O(1): a version reads only its first `count` chunks, and an incremental
 * consumer (the live terminal replay) can key its state on the array and feed only the
 * chunks it has not seen.
 */
export interface LiveOutput {
  /** The deltas' texts; read only the first `count` (later versions may have appended). */
  readonly chunks: readonly string[];
  readonly count: number;
  /** Total UTF-16 length of the first `count` chunks. */
  readonly length: number;
  /** Seq of the last delta included. */
  readonly seq: number;
  /** The host stopped live output at its budget: no delta follows; the result has it all. */
  readonly truncated: boolean;
}

/**
 * One tool call with everything known about it in the window. Immutable: a change
 * produces a new object, so renderers and card models can memoise on identity.
 */
export interface ToolCallBlock {
  readonly callId: string;
  /** Tool name; '' when the call head is not in the window (`call === null`). */
  readonly name: string;
  /** The model's raw argument JSON text; '' when the call head is missing. */
  readonly argsRaw: string;
  /** Set on code-dispatch sub-calls: the call that made this one. */
  readonly parentCallId: string | undefined;
  readonly turn: number;
  readonly step: number;
  /**
   * Seq of the call head: the `tool/call` or `tool/code-dispatch-start` event, else the
   * assistant message (or first chunk) that requested the call, else the result (orphans).
   */
  readonly seq: number;
  /** Time of the call head; undefined when it is missing. */
  readonly startTime: Timestamp | undefined;
  /** Time of the result; undefined while running. */
  readonly endTime: Timestamp | undefined;
  readonly status: ToolCallStatus;
  /** `null` when the result arrived without its call head in the window (an orphan). */
  readonly call: { readonly seq: number } | null;
  readonly result: ToolResultFacts | undefined;
  /**
   * Live output while the call runs (`tool/output` deltas after its head); undefined
   * before the first delta and once the call settles (the result is then the output).
   */
  readonly live?: LiveOutput | undefined;
  /**
   * The person's answers to the questions this call asked (`question/resolved` of a
   * `question/requested` naming the call): one list of values per question, chosen option
   * labels or the typed text. Undefined until answered, and for a declined question.
   */
  readonly answers?: readonly (readonly string[])[] | undefined;
  /** Code-dispatch children in start order; never present in `nodes`. */
  readonly subCalls: readonly ToolCallBlock[];
}

/** One block of an assistant node. */
export type AssistantBlock =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'reasoning';
      readonly text: string;
      /**
       * How long the block took to stream (its first chunk to its end, from the events'
       * times); absent when the step's chunks are not in the window (an import, an
       * older page that starts at the message).
       */
      readonly durationMs?: number;
    }
  | { readonly kind: 'tool-call'; readonly callId: string; readonly tool: ToolCallBlock };

/** A node of the conversation in surface order. Every node carries the seq it came from. */
export type ConversationNode =
  | {
      readonly kind: 'user';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly content: readonly ContentBlock[];
      readonly source: string;
    }
  | {
      readonly kind: 'assistant';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly turn: number;
      readonly step: number;
      readonly blocks: readonly AssistantBlock[];
      readonly usage: Usage | undefined;
      /** True for a partial frozen by a cancelled turn. */
      readonly interrupted: boolean;
    }
  | {
      readonly kind: 'steering';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly turn: number;
      readonly content: readonly ContentBlock[];
      readonly source: string;
    }
  | {
      readonly kind: 'context';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly content: readonly ContentBlock[];
      readonly source: string;
      readonly envelope: string;
      /** Producer-private JSON about the context; '' when absent. */
      readonly metaJson: string;
    }
  | {
      /**
       * A tool block shown on its own: a result whose call head is not in the window
       * (`tool.call === null`), or a `tool/call` whose assistant message is not in the window.
       */
      readonly kind: 'tool-result';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly tool: ToolCallBlock;
    }
  | {
      readonly kind: 'turn-end';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly turn: number;
      readonly reason: TurnEndReason;
    }
  | {
      readonly kind: 'agent-error';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly message: string;
      readonly code: string;
    }
  | {
      /**
       * A `context/compaction`: the model's history before `keptFromSeq` was replaced by
       * `summary`. Clients draw it as a divider; the events it replaced stay in the window.
       */
      readonly kind: 'compaction';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly summary: string;
      readonly replacedFromSeq: number;
      readonly keptFromSeq: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly contextBudget: number;
      readonly reason: CompactionReason;
      readonly instruction: string;
      readonly model: string;
    }
  | {
      /** An extension event or an event the client does not show otherwise: collapsed JSON. */
      readonly kind: 'unknown';
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly type: string;
      readonly dataJson: string;
    };

/** The assistant message being streamed, accumulated from chunks. */
export interface PartialMessage {
  readonly turn: number;
  readonly step: number;
  /** Seq of the first chunk of the message. */
  readonly seq: number;
  readonly blocks: readonly AssistantBlock[];
}

/** An approval or question waiting for a person. */
export type PendingItem =
  | {
      readonly kind: 'approval';
      readonly seq: number;
      readonly approvalId: string;
      readonly callId: string;
      readonly toolName: string;
      readonly reason: string;
    }
  | {
      readonly kind: 'question';
      readonly seq: number;
      readonly questionId: string;
      readonly callId: string;
      readonly questions: readonly Question[];
    };

/** An immutable view of the event window. */
export interface ConversationSnapshot {
  /** First and one-past-last seq of the window; equal when empty. */
  readonly firstSeq: number;
  readonly endSeq: number;
  readonly nodes: readonly ConversationNode[];
  readonly partial: PartialMessage | undefined;
  /** Top-level calls that have no result yet, in call order. */
  readonly runningCalls: readonly ToolCallBlock[];
  readonly pending: readonly PendingItem[];
  /** Answers of resolved questions by question id (for question cards). */
  readonly resolvedQuestions: ReadonlyMap<string, QuestionResolved>;
  /**
   * The turn whose `turn/start` is in the window and whose `turn/end` is not yet (how long
   * it has been working); undefined when none, or when its start is older than the window.
   */
  readonly openTurn: OpenTurn | undefined;
  /** The queue changes in the window (`input/queued`, `input/unqueued`), in seq order. */
  readonly queueLog: readonly QueueChange[];
}

/** A turn that started in the window and has not ended: its number and its `turn/start`. */
export interface OpenTurn {
  readonly turn: number;
  readonly seq: number;
  readonly time: Timestamp | undefined;
}

/** One change to the session's input queue. */
export type QueueChange =
  | {
      readonly kind: 'queued';
      readonly seq: number;
      readonly queueId: string;
      readonly content: readonly ContentBlock[];
      readonly steer: boolean;
    }
  | {
      readonly kind: 'unqueued';
      readonly seq: number;
      readonly queueId: string;
      readonly reason: UnqueueReason;
    };

/** How the window changed. */
export type WindowChange =
  | { readonly kind: 'replace'; readonly events: readonly SessionEvent[] }
  | { readonly kind: 'prepend'; readonly events: readonly SessionEvent[] }
  | { readonly kind: 'append'; readonly events: readonly SessionEvent[] };
