import type { FarReading } from './far-reading.js';
import type { TuiSearch } from './session-search.js';
import type { AllSearchDeps } from './all-search.js';
import { pendingViews, type CardCache, type PendingItem } from '@dsh/card-models';
import type { SessionList } from '@dsh/client-live';
import type { Widgets } from 'reblessed';
import { maxPasteChars } from './bracketed-paste.js';
import type { EditResult } from './edit-in-editor.js';
import type { AnswerStep } from './question-answers.js';
import type { SessionActions } from './session-actions.js';
import type { TuiState } from './tui-state.js';

/** What key handling may call besides the state. */
export interface KeyContext {
  readonly actions: SessionActions;
  readonly open: (sessionId: string) => void;
  readonly list: SessionList;
  /** Asks for a redraw (after an asynchronous action settles). */
  readonly flush: () => void;
  /** Opens the draft in `$VISUAL` / `$EDITOR` (the screen is suspended meanwhile). */
  readonly editDraft: () => void;
  /** The clock (ms since the epoch); tests may pass their own. */
  readonly now: () => number;
  /** The card cache the conversation is drawn with (copying reads cards from it). */
  readonly cards: CardCache;
  /** Puts text on the system clipboard (OSC 52). */
  readonly clipboard: (text: string) => void;
  /** The open session's search (`/`, n, N); absent in tests that do not search. */
  readonly search?: TuiSearch;
  /**
   * Reopens the open session's live window at its tail once it is drawn, releasing the
   * older pages it holds (End after paging far back); absent in tests.
   */
  readonly releaseOlder?: () => void;
  /** Paging far back in a bounded reading window (`far-reading.ts`); absent in tests. */
  readonly reading?: FarReading;
  /** The search of every session (`/` in the session list); absent in tests that do not search. */
  readonly searchAll?: AllSearchDeps;
}

/** A key as reblessed reports it. */
export type Key = Widgets.Events.IKeyEventArg;

/** How long status messages stay: confirmations a few seconds, errors a little longer. */
export const flashMs = { ok: 4_000, error: 8_000 } as const;
/** The window in which a second Ctrl+C confirms a stop or a quit. */
export const confirmMs = 3_000;

/** Shows a message in the status line until it expires. */
export function flash(state: TuiState, context: KeyContext, text: string, error = false): void {
  state.flash = { text, error, until: context.now() + (error ? flashMs.error : flashMs.ok) };
}

/** Shows how an asynchronous action ended in the status line (errors, or `ok` text). */
export function report(
  state: TuiState,
  context: KeyContext,
  work: Promise<string | undefined>,
  ok?: string,
): void {
  void work.then((error) => {
    if (error !== undefined) flash(state, context, error, true);
    else if (ok !== undefined) flash(state, context, ok);
    context.flush();
  });
}

/**
 * Loads the page before the shown window when the view shows its first row: the reading
 * window's paging when the client has one, else the live window's own older pages.
 */
export function loadOlderAtTop(state: TuiState, context: KeyContext): void {
  if (context.reading !== undefined) return context.reading.older(state);
  const open = state.open;
  if (!open) return;
  if (open.view.frame().atTop && open.window.state.hasMore && !open.window.state.loadingOlder) {
    open.olderPages++;
    void open.window.loadOlder();
  }
}

/** True while the open session runs a turn (as far as a live connection knows). */
export function running(state: TuiState): boolean {
  return state.open ? (state.list?.sessions.get(state.open.id)?.running ?? false) : false;
}

/**
 * The pending approval or question the prompt bar is about: the oldest one a running turn
 * waits for (card-models' `pendingViews`; no prompt for an item no live turn can take).
 */
export function currentPending(state: TuiState): PendingItem | undefined {
  const pending = state.open?.window.state.snapshot.pending ?? [];
  return pendingViews(pending, running(state)).find((view) => view.answerable)?.item;
}

/** The id naming a pending item (approval or question id). */
export function pendingId(item: PendingItem): string {
  return item.kind === 'approval' ? item.approvalId : item.questionId;
}

/** Cancels the open session's turn; the host drops what was queued, and so does the queue. */
export function stop(state: TuiState, context: KeyContext): void {
  const open = state.open;
  if (!open) return;
  const stopped = context.actions.stop(open.id).then((error) => {
    if (error === undefined && state.open === open) state.queue = [];
    return error;
  });
  report(state, context, stopped, 'stop requested');
}

/** Quits at once when nothing runs; while a turn runs, asks once (y quits). */
export function requestQuit(state: TuiState): 'quit' | 'handled' {
  if (!running(state)) return 'quit';
  state.confirm = { kind: 'quit-running', until: Number.POSITIVE_INFINITY };
  return 'handled';
}

/** Keeps question progress, or sends the answers once the last question is answered. */
export function applyAnswer(
  state: TuiState,
  context: KeyContext,
  questionId: string,
  step: AnswerStep,
): void {
  if (!state.open || step.kind === 'ignored') return;
  if (step.kind === 'progress') {
    state.answers = step.answers;
    return;
  }
  state.answers = undefined;
  report(
    state,
    context,
    context.actions.answer(state.open.id, questionId, step.answers),
    'answered',
  );
}

/** Keys the panes outside the composer share: `?` help, `r` reconnect now. */
export function onCommon(state: TuiState, ch: string | undefined, context: KeyContext): void {
  if (ch === '?') state.help = true;
  else if (ch === 'r') {
    context.list.retry();
    state.open?.window.retry();
  }
}

/** A paste goes into the composer whole, lines and all, and focus goes with it. */
export function pasteIntoComposer(
  state: TuiState,
  context: KeyContext,
  text: string,
  cut: boolean,
): void {
  state.focus = 'input';
  state.composer.insert(text);
  state.typedAt = context.now();
  if (cut) {
    flash(
      state,
      context,
      `the paste was cut at ${maxPasteChars.toLocaleString('en')} characters`,
      true,
    );
  }
}

/** The draft edited in `$EDITOR` replaces the composer's; a failed editor says why. */
export function applyEdit(state: TuiState, context: KeyContext, result: EditResult): void {
  if ('text' in result) state.composer.set(result.text);
  else flash(state, context, result.error, true);
  state.focus = 'input';
}
