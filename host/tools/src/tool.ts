import type { ToolRunResult } from './tool-runtime.js';

/** A structured tool failure, as recorded in `tool/result.error`. */
export interface ToolErrorInfo {
  /** Error class, for example `InvalidArguments` or `Timeout`. */
  name: string;
  /** Machine-readable code, for example `invalid_arguments` or `not_found`. */
  code: string;
  message: string;
}

/** The outcome of parsing a tool's raw argument text: never throws. */
export type ParseResult<A> = { ok: true; value: A } | { ok: false; error: string };

/** One question of `ask_user`, in the shape of the proto `Question`. */
export interface UserQuestion {
  question: string;
  header?: string;
  options?: { label: string; description?: string }[];
  multiSelect?: boolean;
}

/** The person's answers to `ask_user`: one list of values per question, in order. */
export type UserAnswers = string[][];

/** A call about to run, as the approval gate sees it. */
export interface ToolCallHead {
  /** The call's id (a `run_code` sub-call's own id, `<parentCallId>.<n>`). */
  callId: string;
  name: string;
  /** The arguments as the model sent them (raw JSON text). */
  rawArgs: string;
  /** The `run_code` call that made this call; absent at top level. */
  parentCallId?: string;
}

/**
 * Everything a tool may use while it runs. The agent loop builds one per call; tools
 * never reach for session state any other way, so a sub-call sees exactly its own.
 */
export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  /** Aborted when the turn is cancelled; tools stop and kill their subprocesses. */
  signal: AbortSignal;
  sessionId: string;
  /** Folder for spilled output and background job logs (created on demand). */
  spillDir: string;
  /** The id of this call (a sub-call's own id inside `run_code`). */
  callId: string;
  /** The `run_code` call this sub-call was made by; absent at top level. */
  parentCallId?: string;
  /** How many `run_code` programs enclose this call: 0 (or absent) at top level. */
  depth?: number;
  /**
   * The approval policy. The runtime asks it before every call it runs, at top level and
   * inside `run_code` alike (sub-calls inherit it), so no call skips the policy. Resolves
   * `undefined` to run the call, or the value to settle it with instead (denied, interrupted).
   * A wait for a person ends when `signal` (the call's own) aborts.
   */
  gate(call: ToolCallHead, signal: AbortSignal): Promise<ToolValue | undefined>;
  /** Asks the person questions; absent when nobody can answer (e.g. a headless run). */
  askUser?(questions: UserQuestion[], signal: AbortSignal): Promise<UserAnswers | 'cancelled'>;
  /**
   * Receives the call's output while it is produced (the shell tools pass their combined,
   * decoded output, in arrival order), so clients can show it live; absent when nobody
   * listens. It is presentation only: the returned value stays the canonical output.
   * Cheap and synchronous: the caller coalesces and bounds what it records.
   */
  liveOutput?(text: string): void;
  /**
   * Runs another tool on behalf of `run_code`; the caller records the sub-call as
   * `tool/code-dispatch-start` / `tool/code-dispatch`. `signal` ends that sub-call early
   * (a program that ends takes its unfinished calls with it).
   */
  dispatch?(name: string, rawArgs: string, signal?: AbortSignal): Promise<ToolRunResult>;
}

/** What a tool returns: the model-visible text and, for metadata, its canonical value. */
export interface ToolValue<V = unknown> {
  /** The text the model sees. */
  content: string;
  isError: boolean;
  /** Set when `isError` is true. */
  error?: ToolErrorInfo;
  /** The canonical value `presentationMeta` derives card metadata from. */
  value?: V;
}

/**
 * A first-party tool: its model-facing definition, an argument parser that reports
 * problems instead of throwing, and its execution. Methods (not function properties)
 * keep `Tool<ReadArgs, ReadValue>` assignable to `Tool` under strict function types.
 */
export interface Tool<A = unknown, V = unknown> {
  name: string;
  description: string;
  /** JSON schema of the arguments, sent to the model. */
  parameters: Record<string, unknown>;
  parseArgs(raw: string): ParseResult<A>;
  execute(args: A, ctx: ToolContext): Promise<ToolValue<V>>;
  /** Card metadata for top-level calls, derived while the canonical value is in memory. */
  presentationMeta?(args: A, value: V): unknown;
}
