import {
  applyAnswer,
  currentPending,
  pendingId,
  report,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { chooseOption, confirmChoice, startAnswers } from './question-answers.js';
import type { TuiState } from './tui-state.js';

/** A prompt waits this long after taking focus before its keys answer (typing goes on). */
export const promptArmMs = 500;
/** A prompt does not take focus from a composer typed into this recently. */
export const typingQuietMs = 1_000;

/**
 * Gives the prompt bar focus when a new approval or question arrives, unless the person is
 * writing a draft (or typed in the last second) or put the item off; takes focus back to
 * the composer when nothing is pending any more.
 */
export function syncPrompt(state: TuiState, now: number): void {
  const pending = currentPending(state);
  if (pending === undefined) {
    state.prompt = undefined;
    if (state.focus === 'prompt') state.focus = 'input';
    return;
  }
  const id = pendingId(pending);
  if (state.prompt?.id === id) return;
  state.prompt = { id, armedAt: now + promptArmMs };
  const idle = state.composer.text === '' && now - state.typedAt >= typingQuietMs;
  const free =
    state.focus === 'conversation' || state.focus === 'prompt' || (state.focus === 'input' && idle);
  if (!state.deferred.has(id) && free && state.inputMode === 'prompt') state.focus = 'prompt';
  else if (state.focus === 'prompt') state.focus = 'input';
}

/** Moves to the composer with `ch` typed there: a key that is no answer is typing. */
function typeInstead(state: TuiState, ch: string | undefined, key: Key, now: number): void {
  state.focus = 'input';
  if (ch !== undefined && !key.ctrl && !key.meta && state.composer.edit(ch, key))
    state.typedAt = now;
}

/**
 * Keys of the prompt bar: `y`/`a`/`n` answer an approval (once, for the session, deny),
 * `1`-`9`/`Enter`/`t`/`x` a question, `Esc` puts it off. Any other printable key is typed
 * into the composer instead, and so is every key in the first moments after the prompt
 * took focus, so a word typed as the prompt appears never answers it.
 */
export function onPrompt(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): boolean {
  const open = state.open;
  const pending = currentPending(state);
  const now = context.now();
  if (!open || pending === undefined) {
    state.focus = 'input';
    return false;
  }
  if (key.full === 'escape') {
    state.deferred.add(pendingId(pending));
    state.answers = undefined;
    state.focus = 'input';
    return true;
  }
  if (now < (state.prompt?.armedAt ?? 0)) {
    typeInstead(state, ch, key, now);
    return true;
  }
  if (pending.kind === 'approval') {
    if (ch === 'y' || ch === 'a' || ch === 'n') {
      const decision = ch === 'y' ? 'allow' : ch === 'a' ? 'session' : 'deny';
      report(
        state,
        context,
        context.actions.approve(open.id, pending.approvalId, decision),
        `${decision === 'deny' ? 'denied' : 'allowed'} ${pending.toolName}${decision === 'session' ? ' for this session' : ''}`,
      );
      state.deferred.add(pending.approvalId);
      return true;
    }
  } else {
    const progress = startAnswers(pending, state.answers);
    if (ch !== undefined && /^[1-9]$/.test(ch)) {
      applyAnswer(state, context, pending.questionId, chooseOption(pending, progress, Number(ch)));
      return true;
    }
    if (key.full === 'return' || key.full === 'enter') {
      applyAnswer(state, context, pending.questionId, confirmChoice(pending, progress));
      return true;
    }
    if (ch === 't') {
      state.answers = progress;
      state.inputMode = 'answer';
      state.focus = 'input';
      return true;
    }
    if (ch === 'x') {
      state.answers = undefined;
      state.deferred.add(pending.questionId);
      report(
        state,
        context,
        context.actions.answer(open.id, pending.questionId, 'cancelled'),
        'declined',
      );
      return true;
    }
  }
  if (ch !== undefined && !key.ctrl && !key.meta && key.full !== 'return' && key.full !== 'enter') {
    typeInstead(state, ch, key, now);
    return true;
  }
  return false;
}
