import type { PathFacts } from '@dsh/card-models';
import type {
  ConnectionState,
  HistoryWindow,
  SessionListState,
  SessionWindow,
  SessionWindowState,
} from '@dsh/client-live';
import type { SearchHit } from '@dsh/gen/service';
import type { ConversationRenderer } from '../conversation/render-conversation.js';
import { createComposer, type Composer } from './composer.js';
import type { ConversationView } from './conversation-view.js';
import type { HistoryBrowse } from './input-history.js';
import type { QueuedPrompt } from './prompt-queue.js';
import type { QuestionAnswers } from './question-answers.js';
import type { ManageStep } from './session-manage.js';
import type { AllSearch } from './all-search.js';

/**
 * The pane with the keyboard. `prompt` is the bar of a pending approval or question: only
 * there do single keys answer it.
 */
export type Focus = 'sessions' | 'conversation' | 'input' | 'prompt';

/** The open session: its live window, renderer memo and scroll state. */
export interface OpenSession {
  readonly id: string;
  /** The live window (status, prompts, the queue); reopened at its tail to release pages. */
  window: SessionWindow;
  /**
   * The bounded history window the pane shows while the reader pages far back
   * (`far-reading.ts`), from when it has opened; the live window keeps following meanwhile.
   */
  reading: { readonly history: HistoryWindow; readonly window: SessionWindow } | undefined;
  /** Draws with `facts`; replaced when the session's summary brings other facts. */
  renderer: ConversationRenderer;
  facts: PathFacts;
  readonly view: ConversationView;
  /** Older pages loaded into the live window since it opened (End releases them past a few). */
  olderPages: number;
  /** The window state, width, running and streaming flags the view's items were rendered from. */
  renderedFrom:
    | {
        state: SessionWindowState;
        width: number;
        running: boolean;
        streaming: boolean;
        renderer: ConversationRenderer;
        /** False while items of an earlier width remain (the next draw goes on). */
        complete: boolean;
      }
    | undefined;
}

/** A message in the status line that goes away by itself at `until` (ms since the epoch). */
export interface Flash {
  readonly text: string;
  readonly error: boolean;
  readonly until: number;
}

/**
 * An action waiting for its confirming key until `until`: `stop` (Ctrl+C again stops the
 * turn), `quit` (Ctrl+C again quits) and `quit-running` (y quits while a turn runs).
 */
export interface Confirmation {
  readonly kind: 'stop' | 'quit' | 'quit-running';
  readonly until: number;
}

/** Everything the client draws, mutated by keys and data, drawn by `drawTui`. */
export interface TuiState {
  focus: Focus;
  list: SessionListState | undefined;
  listCursor: number;
  open: OpenSession | undefined;
  composer: Composer;
  /** What Enter in the composer does: send a prompt, or answer the current question. */
  inputMode: 'prompt' | 'answer';
  answers: QuestionAnswers | undefined;
  /**
   * The details overlay: its lines come from the selected item; `top` is its scroll and
   * `bottom` the largest `top` of the last draw (a running card at the bottom follows it).
   */
  details: { key: string; top: number; bottom?: number } | undefined;
  help: boolean;
  flash: Flash | undefined;
  confirm: Confirmation | undefined;
  /**
   * The pending item the prompt bar shows (approval or question id), when the prompt took
   * focus for it (`armedAt`: keys before it are typing, not answers), and the items the
   * person put off with Esc (they do not take focus again).
   */
  prompt: { id: string; armedAt: number } | undefined;
  deferred: Set<string>;
  /** When the person last typed into the composer (ms): a prompt does not take focus then. */
  typedAt: number;
  /** The first key of a two-key chord (C-x), until the next key. */
  chord: string | undefined;
  homeDir: string;
  /** The session list is drawn (terminals of 60 columns and more); focus skips it otherwise. */
  listShown: boolean;
  /**
   * When the client first saw the open session running (ms), for the working time when the
   * turn's start is older than the window.
   */
  runningSince: number | undefined;
  /** Prompts this client sent while a turn ran that have not shown in the window yet. */
  queue: readonly QueuedPrompt[];
  /** Up/Down browsing of earlier prompts in the composer, while the recalled text is unedited. */
  history: HistoryBrowse | undefined;
  /** The session picker (C-o): what is typed, and the highlighted match. */
  picker: { query: string; cursor: number } | undefined;
  /** The search query line (`/`): typed while `editing`, kept for the status of its hits. */
  searchLine: { query: string; editing: boolean } | undefined;
  /** A search hit to select once the conversation pane holds its item. */
  pendingHit: SearchHit | undefined;
  /** False once the host says it cannot prompt (no `prompt` capability). */
  canPrompt: boolean;
  /** The search of every session (`/` in the session list), while it is open. */
  allSearch: AllSearch | undefined;
  /** Whether the session list shows archived sessions (`.` toggles). */
  showArchived: boolean;
  /** A rename being typed or a delete waiting for its `y`, from the session list. */
  manage: ManageStep | undefined;
  /**
   * When each current `reconnecting` state of the streams arrived (ms): the status line
   * counts its `retryInMs` down from then (`noteReconnects` keeps it, drawing only reads).
   */
  reconnectSince: ReadonlyMap<ConnectionState, number>;
}

/** The state of a client that just started: focus in an empty composer, nothing open. */
export function createTuiState(): TuiState {
  return {
    focus: 'input',
    list: undefined,
    listCursor: 0,
    open: undefined,
    composer: createComposer(),
    inputMode: 'prompt',
    answers: undefined,
    details: undefined,
    help: false,
    flash: undefined,
    confirm: undefined,
    prompt: undefined,
    deferred: new Set(),
    typedAt: 0,
    chord: undefined,
    homeDir: '',
    listShown: true,
    runningSince: undefined,
    queue: [],
    history: undefined,
    picker: undefined,
    searchLine: undefined,
    pendingHit: undefined,
    canPrompt: true,
    allSearch: undefined,
    showArchived: false,
    manage: undefined,
    reconnectSince: new Map(),
  };
}
