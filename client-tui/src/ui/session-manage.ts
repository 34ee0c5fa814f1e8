import type { SessionSummary } from '@dsh/gen/service';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import { flash, type Key, type KeyContext } from './key-actions.js';
import { clampListCursor, listRows } from './list-rows.js';
import { sessionTitle } from './session-title.js';
import type { TuiState } from './tui-state.js';

/**
 * A session-list action waiting for the person: a new title being typed (`rename`), or
 * the question whether to delete (`delete`, asked at `askedAt`; keys before `armedAt`
 * keep the session).
 */
export type ManageStep =
  | { readonly kind: 'rename'; readonly sessionId: string; readonly was: string; text: string }
  | {
      readonly kind: 'delete';
      readonly sessionId: string;
      readonly title: string;
      readonly armedAt: number;
    };

/** How long after the delete question its `y` still counts as typing, not an answer. */
export const deleteArmMs = 500;

// One character that is not a control character.
// eslint-disable-next-line no-control-regex -- control characters are what it excludes
const printable = /^[^\x00-\x1f\x7f-\x9f]$/u;

/** The session under the list cursor. */
function cursorSession(state: TuiState): SessionSummary | undefined {
  return listRows(state)[state.listCursor]?.summary;
}

/** M-r / F2: starts typing a new title for the session under the cursor. */
export function beginRename(state: TuiState): void {
  const summary = cursorSession(state);
  if (summary === undefined) return;
  const was = oneLine(sessionTitle(state, summary.id, summary));
  state.manage = { kind: 'rename', sessionId: summary.id, was, text: summary.title };
}

/** M-a: archives the session under the cursor, or unarchives an archived one. */
export function toggleArchive(state: TuiState, context: KeyContext): void {
  const summary = cursorSession(state);
  if (summary === undefined) return;
  const archived = !summary.archived;
  const title = oneLine(sessionTitle(state, summary.id, summary));
  void context.actions.update(summary.id, { archived }).then((error) => {
    if (error !== undefined)
      flash(state, context, `not ${archived ? 'archived' : 'unarchived'}: ${error}`, true);
    else if (archived && !state.showArchived)
      flash(state, context, `archived "${title}" · . shows archived sessions`);
    else flash(state, context, `${archived ? 'archived' : 'unarchived'} "${title}"`);
    context.flush();
  });
}

/** M-d / Delete: asks whether to delete the session under the cursor, naming it. */
export function askDelete(state: TuiState, context: KeyContext): void {
  const summary = cursorSession(state);
  if (summary === undefined) return;
  state.manage = {
    kind: 'delete',
    sessionId: summary.id,
    title: oneLine(sessionTitle(state, summary.id, summary)),
    armedAt: context.now() + deleteArmMs,
  };
}

/** `.`: shows or hides archived sessions in the list (the host watches them either way). */
export function toggleShowArchived(state: TuiState, context: KeyContext): void {
  const id = cursorSession(state)?.id;
  state.showArchived = !state.showArchived;
  const at = listRows(state).findIndex((row) => row.summary.id === id);
  if (at >= 0) state.listCursor = at;
  clampListCursor(state);
  flash(
    state,
    context,
    state.showArchived ? 'showing archived sessions' : 'archived sessions hidden',
  );
}

/** Keys while a rename or the delete question is open; false when none is. */
export function onManage(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): boolean {
  const step = state.manage;
  if (step === undefined) return false;
  if (step.kind === 'delete') {
    state.manage = undefined;
    if (ch === 'y' && context.now() >= step.armedAt) remove(state, context, step);
    else flash(state, context, `kept "${step.title}"`);
    return true;
  }
  switch (key.full) {
    case 'escape':
    case 'C-g':
      state.manage = undefined;
      return true;
    case 'return':
    case 'enter':
      state.manage = undefined;
      rename(state, context, step.sessionId, step.text.trim());
      return true;
    case 'backspace':
      step.text = Array.from(step.text).slice(0, -1).join('');
      return true;
    case 'C-u':
      step.text = '';
      return true;
    default:
      if (ch !== undefined && !key.ctrl && !key.meta && printable.test(ch)) step.text += ch;
      return true;
  }
}

function rename(state: TuiState, context: KeyContext, sessionId: string, title: string): void {
  void context.actions.update(sessionId, { title }).then((error) => {
    if (error !== undefined) flash(state, context, `not renamed: ${error}`, true);
    else
      flash(
        state,
        context,
        title === '' ? 'title reset to the first prompt' : `renamed to "${title}"`,
      );
    context.flush();
  });
}

/** Deletes the session; when it was open, the next session in the list opens instead. */
function remove(
  state: TuiState,
  context: KeyContext,
  step: Extract<ManageStep, { kind: 'delete' }>,
): void {
  void context.actions.remove(step.sessionId).then((result) => {
    if ('error' in result) {
      flash(state, context, `"${step.title}" not deleted: ${result.error}`, true);
    } else {
      flash(state, context, `deleted "${step.title}" (moved to ${result.trashPath})`);
      if (state.open?.id === step.sessionId) {
        const next = listRows(state).find((row) => row.summary.id !== step.sessionId);
        if (next !== undefined) context.open(next.summary.id);
      }
    }
    context.flush();
  });
}

/** The bar of a rename or the delete question, drawn where the prompt bar goes. */
export function manageLines(state: TuiState, width: number): StyledLine[] {
  const step = state.manage;
  if (step === undefined) return [];
  if (step.kind === 'delete') {
    return wrapLine(
      [
        seg(`Delete "${step.title}"?`, theme.pending),
        seg(" its files go to the host's trash folder  ", theme.dim),
        seg('[y]', theme.key),
        seg(' delete  '),
        seg('[any other key]', theme.key),
        seg(' keep'),
      ],
      width,
      2,
      2,
    );
  }
  return wrapLine(
    [
      seg(`Rename "${step.was}" `, theme.pending),
      seg(' › ', theme.user),
      seg(oneLine(step.text)),
      seg('▏', theme.user),
      seg('  Enter rename · empty: first prompt · Esc cancel', theme.dim),
    ],
    width,
    2,
    2,
  );
}
