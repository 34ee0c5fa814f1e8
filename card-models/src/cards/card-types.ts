import type { ShellEnding } from '../contract/markers.js';
import type { LiveOutput, ToolCallStatus } from '../conversation/types.js';
import type { DiffCard } from './diff-card.js';
import type { PlanCard } from './plan-card.js';
import type { ReadCard } from './read-card.js';
import type { SearchCard } from './search-card.js';
import type { WebCard } from './web-card.js';

/** The classification of a tool row, which picks its glyph and grouping in both clients. */
export type RowKind = 'search' | 'read' | 'bash' | 'write' | 'edit' | 'code' | 'other';

/**
 * The row every tool call has, whatever its body: enough to draw any call, including
 * unknown tools, malformed arguments and orphan results.
 */
export interface GenericRow {
  readonly callId: string;
  /** Tool name; '' for an orphan whose call head is not in the window. */
  readonly tool: string;
  readonly kind: RowKind;
  /** Tool-specific title ("Bash", "Read", "Code"...), the tool name for unknown tools, the callId for orphans. */
  readonly title: string;
  /** One line from the arguments (description, command, path, pattern, queries, url, first string). */
  readonly summary: string;
  /** Absolute path named by `file_path` or `path`, for opening the file; undefined when none. */
  readonly path: string | undefined;
  /** `path` as shown: cwd-relative, `~` for home, otherwise absolute. */
  readonly displayPath: string | undefined;
  /** Arguments as pretty JSON, or the raw text when it is not JSON. */
  readonly argsText: string;
  /** The result content flattened to text ('' while running). */
  readonly resultText: string;
  /** One-line error text from the structured error (or the content of an error result); '' when none. */
  readonly errorText: string;
  /** Machine-readable error code from the structured error; '' when none. */
  readonly errorCode: string;
  readonly state: ToolCallStatus;
  /** True when the result arrived without its call head (`call === null`). */
  readonly orphan: boolean;
  /** True for a code-dispatch sub-call (it has a `parentCallId`). */
  readonly nested: boolean;
}

/** The body of a call with no specialised card: clients draw the row's IN/OUT text. */
export interface GenericBody {
  readonly kind: 'generic';
}

/**
 * Props of a terminal card: a prompt with the command, then (once settled) the output
 * to replay through `terminalLines` and the exit pill.
 */
export interface TerminalCard {
  readonly kind: 'terminal';
  /** Prompt style: the shell tool, or `terminal_send` for input sent to a persistent terminal. */
  readonly tool: 'bash' | 'pwsh' | 'terminal_send';
  /** The command line, or the verbatim input of `terminal_send` ('' is possible). */
  readonly command: string;
  /** Shown above the card; undefined when the call gave none. */
  readonly description: string | undefined;
  /** Absolute, normalised working directory; undefined for persistent shells and `terminal_send`. */
  readonly cwd: string | undefined;
  /** `cwd` with the home directory shown as `~`. */
  readonly displayCwd: string | undefined;
  /** Id of the persistent shell the command ran in; undefined for standard shells. */
  readonly session: string | undefined;
  /** `stopped`: interrupted by Stop after the command recorded an ending (its output is kept). */
  readonly state: 'running' | 'ok' | 'error' | 'stopped';
  /** An explicit background launch: once settled, only the static command is shown. */
  readonly background: boolean;
  /** Output to replay (exit marker removed); undefined while running and for background launches. */
  readonly output: string | undefined;
  /**
   * Live output while running (the call's `tool/output` deltas; replay it through
   * `terminalLines` / `terminalCardPreview`); undefined once settled and before any delta.
   */
  readonly live: LiveOutput | undefined;
  /** Exit code or signal parsed from the trailing marker, for the pill. */
  readonly ending: ShellEnding | undefined;
  /** The command ran past its time limit (a `timeout` error or a timeout notice in the output). */
  readonly timedOut: boolean;
}

/** One item of a todo list as `todo_write` gave it. */
export interface TodoItem {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

/** Props of a todo row: the list from the arguments and its counts. */
export interface TodoCard {
  readonly kind: 'todo';
  readonly items: readonly TodoItem[];
  readonly done: number;
  readonly active: number;
  readonly pending: number;
}

/** One option of a question; `chosen` once the person picked it. */
export interface QuestionOption {
  readonly label: string;
  readonly description: string | undefined;
  readonly chosen: boolean;
}

/** One question of `ask_user` as its arguments gave it, with the person's answer once given. */
export interface QuestionItem {
  readonly question: string;
  readonly header: string | undefined;
  readonly options: readonly QuestionOption[];
  readonly multiSelect: boolean;
  /**
   * The person's answer (chosen labels or the typed text) from `question/resolved`;
   * undefined while waiting, when declined, or when the answer is not in the window.
   */
  readonly answer: readonly string[] | undefined;
  /** Answer values that are none of the options (free text); empty when none. */
  readonly typed: readonly string[];
}

/** Props of a question row: the questions and where the person is with them. */
export interface QuestionCard {
  readonly kind: 'question';
  /** `cancelled`: the person declined to answer (drawn as declined, not as a failure). */
  readonly state: 'waiting' | 'answered' | 'cancelled' | 'interrupted';
  readonly questions: readonly QuestionItem[];
  /** The answers as the result gave them; undefined unless answered. */
  readonly answers: string | undefined;
}

/** Props of a skill row. */
export interface SkillCard {
  readonly kind: 'skill';
  readonly name: string;
  readonly state: ToolCallStatus;
}

/** Props of a `run_code` row: the program, shown monospace when expanded. */
export interface CodeCard {
  readonly kind: 'code';
  readonly description: string;
  readonly code: string;
}

/** Every body a card can have; `kind` tells the renderer which one. */
export type CardBody =
  | GenericBody
  | TerminalCard
  | DiffCard
  | ReadCard
  | SearchCard
  | WebCard
  | TodoCard
  | QuestionCard
  | SkillCard
  | CodeCard
  | PlanCard;

/**
 * The tone of a card's state: `ok` (done), `error` (failed, killed, timed out, an HTTP
 * error, a tool error), `stopped` (interrupted by Stop), `declined` (a person said no).
 */
export type CardState = 'running' | 'ok' | 'error' | 'stopped' | 'declined';

/** The one state a card shows, with its words: what both clients put in the card's header. */
export interface CardStatus {
  readonly state: CardState;
  /**
   * `running`, `done`, `failed` (non-zero exit, HTTP error), `killed` (signal), `timed out`,
   * `error`, `stopped`, `declined` (a question) or `denied` (a call).
   */
  readonly label: string;
}

/**
 * What both clients draw for one tool call: the generic row (always present), one
 * body, the state to show (`status`, which weighs the body's facts: an exit code, a
 * timeout, an HTTP status), and the cards of its code-dispatch sub-calls in start order
 * (derived with the same rules, drawn as ordinary rows nested under it).
 */
export interface Card {
  readonly row: GenericRow;
  readonly body: CardBody;
  readonly status: CardStatus;
  readonly subCalls: readonly Card[];
  /** The session the call's work ran in (a sub-agent), for a link; undefined when none. */
  readonly link: SessionLink | undefined;
}

/** A link from a card or a context row to another session. */
export interface SessionLink {
  readonly sessionId: string;
  /** What the link opens, in words: `Open the sub-agent's session`. */
  readonly label: string;
}
