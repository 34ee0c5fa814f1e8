import { pendingViews, type PendingItem } from '@dsh/card-models';
import type { SessionList } from '@dsh/client-live';
import type { Widgets } from 'reblessed';
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
}

/** A key as reblessed reports it. */
export type Key = Widgets.Events.IKeyEventArg;

/** Shows how an asynchronous action ended in the status line (errors, or `ok` text). */
export function report(
  state: TuiState,
  context: KeyContext,
  work: Promise<string | undefined>,
  ok?: string,
): void {
  void work.then((error) => {
    state.flash =
      error !== undefined
        ? { text: error, error: true }
        : ok
          ? { text: ok, error: false }
          : undefined;
    context.flush();
  });
}

/** Loads the page before the window when the view shows its first row. */
export function loadOlderAtTop(state: TuiState): void {
  const open = state.open;
  if (!open) return;
  if (open.view.frame().atTop && open.window.state.hasMore) void open.window.loadOlder();
}

/** True while the open session runs a turn. */
export function running(state: TuiState): boolean {
  return state.open ? (state.list?.sessions.get(state.open.id)?.running ?? false) : false;
}

/** The open session's pending items a running turn waits for (card-models' rule). */
export function answerablePending(state: TuiState): PendingItem[] {
  const pending = state.open?.window.state.snapshot.pending ?? [];
  return pendingViews(pending, running(state)).flatMap((v) => (v.answerable ? [v.item] : []));
}

/** Cancels the open session's turn. */
export function stop(state: TuiState, context: KeyContext): void {
  if (state.open) report(state, context, context.actions.stop(state.open.id), 'stop requested');
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

/** Keys every pane shares: `?` help, `r` reconnect now. */
export function onCommon(state: TuiState, ch: string | undefined, context: KeyContext): void {
  if (ch === '?') state.help = true;
  else if (ch === 'r') {
    context.list.retry();
    state.open?.window.retry();
  }
}
