import type { StreamChunk } from '@dsh/gen/content';

/** One stream chunk as a provider yields it: exactly the cases of the proto `StreamChunk`. */
export type ProviderChunk = Exclude<StreamChunk['chunk'], { case: undefined }>;

/** A tool call the model made in an earlier step, sent back as history. */
export interface ProviderToolCall {
  readonly id: string;
  readonly name: string;
  /** The model's raw argument text, unchanged. */
  readonly arguments: string;
}

/** One message of the conversation the model sees, in the chat-completions shape. */
export type ProviderMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls: readonly ProviderToolCall[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool the model may call: its name, description and JSON-schema parameters. */
export interface ProviderTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** What one model step is asked for. */
export interface ProviderRequest {
  readonly model: string;
  readonly messages: readonly ProviderMessage[];
  readonly tools: readonly ProviderTool[];
  /** Aborting it stops the stream; the iterator then throws a `ProviderError('aborted')`. */
  readonly signal: AbortSignal;
  /** The session's working directory (the demo model works in it). */
  readonly cwd?: string;
  /**
   * `compaction` when the request asks the model to summarise the history (no tools are
   * offered); a model step otherwise.
   */
  readonly purpose?: 'step' | 'compaction';
}

/**
 * The first line of the user message that carries a compaction summary in the history
 * the model is sent, so a reader (and the demo model) can tell it from typed input.
 */
export const compactionSummaryHeading =
  '[dsh compacted this conversation: the summary below replaces the earlier messages]';

/**
 * A model behind a streaming API. `stream` yields the chunks of one step in order, ending
 * with `finish`; a failure throws a `ProviderError`.
 */
export interface ModelProvider {
  /** The model name recorded on assistant messages. */
  readonly model: string;
  stream(request: ProviderRequest): AsyncIterable<ProviderChunk>;
}
