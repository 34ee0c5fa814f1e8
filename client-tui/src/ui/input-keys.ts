import { recallHistory } from './input-history.js';
import { composerCommand } from '@dsh/card-models';
import {
  applyAnswer,
  currentPending,
  flash,
  requestQuit,
  running,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { dropQueued, enqueuePrompt } from './prompt-queue.js';
import { startAnswers, typeAnswer } from './question-answers.js';
import { inputLocked } from './read-only.js';
import type { TuiState } from './tui-state.js';

/** True for the keys that put a line break into the draft: Ctrl+J (LF) and Alt+Enter. */
export function isNewlineKey(key: Key): boolean {
  return (
    key.name === 'linefeed' ||
    (key.name === 'enter' && key.sequence === '\n') ||
    key.sequence === '\x1b\r' ||
    key.sequence === '\x1b\n' ||
    key.full === 'M-return' ||
    key.full === 'M-enter'
  );
}

/**
 * The composer of a session that takes no input: Esc leaves, C-d quits, every other key
 * says why nothing is typed (the draft stays for the next session).
 */
function onLockedInput(
  state: TuiState,
  key: Key,
  context: KeyContext,
  reason: string,
): 'quit' | 'handled' {
  if (key.full === 'escape') state.focus = 'conversation';
  else if (key.full === 'C-d') return requestQuit(state);
  else flash(state, context, reason);
  return 'handled';
}

/**
 * Keys of the composer: Enter sends (or answers a question), Ctrl+J / Alt+Enter break the
 * line, Ctrl+S steers, Ctrl+G or Ctrl+X Ctrl+E open `$EDITOR`, Esc leaves (and never
 * stops anything), Ctrl+D on an empty draft quits, the rest edits.
 */
export function onInput(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): 'quit' | 'handled' {
  const locked = inputLocked(state);
  if (locked !== undefined) return onLockedInput(state, key, context, locked);
  const open = state.open;
  const composer = state.composer;
  if (isNewlineKey(key)) {
    composer.insert('\n');
    state.typedAt = context.now();
    return 'handled';
  }
  switch (key.full) {
    case 'return': {
      const text = composer.text;
      if (text.trim() === '') return 'handled';
      if (!open) {
        flash(state, context, 'no session is open yet: the draft waits in the composer', true);
        return 'handled';
      }
      if (state.inputMode === 'answer') {
        answerWith(state, context, text);
        return 'handled';
      }
      send(state, context, text, 'queue');
      return 'handled';
    }
    case 'C-s':
      if (open && composer.text.trim() !== '') send(state, context, composer.text, 'steer');
      return 'handled';
    case 'C-x':
      state.chord = 'C-x';
      return 'handled';
    case 'C-g':
      context.editDraft();
      return 'handled';
    case 'escape':
      if (state.inputMode === 'answer') {
        state.inputMode = 'prompt';
        state.focus = 'prompt';
      } else state.focus = 'conversation';
      return 'handled';
    case 'C-d':
      if (composer.text === '') return requestQuit(state);
      break;
    case 'up':
    case 'down':
      if (state.inputMode === 'prompt' && recallHistory(state, key.full)) return 'handled';
      break;
    default:
      break;
  }
  if (composer.edit(ch, key)) state.typedAt = context.now();
  return 'handled';
}

function answerWith(state: TuiState, context: KeyContext, text: string): void {
  const pending = currentPending(state);
  if (pending?.kind !== 'question') {
    state.inputMode = 'prompt';
    flash(state, context, 'the question is no longer pending; Enter sends the draft', true);
    return;
  }
  state.composer.set('');
  state.inputMode = 'prompt';
  applyAnswer(
    state,
    context,
    pending.questionId,
    typeAnswer(pending, startAnswers(pending, state.answers), text),
  );
  state.focus = 'prompt';
}

function send(state: TuiState, context: KeyContext, text: string, mode: 'queue' | 'steer'): void {
  const open = state.open;
  if (!open) return;
  state.composer.set('');
  state.history = undefined;
  // Sending ends the typing: a prompt that arrives now may take focus.
  state.typedAt = 0;
  open.view.follow();
  // The unsent text comes back, before whatever was typed since.
  const putBack = (): void => {
    const since = state.composer.text;
    state.composer.set(since === '' ? text : `${text}\n${since}`);
  };
  const command = composerCommand(text);
  if (command.kind === 'compact') {
    flash(state, context, 'compacting the model’s history…');
    void context.actions.compact(open.id, command.instruction).then((result) => {
      if ('error' in result) {
        putBack();
        flash(
          state,
          context,
          `not compacted: ${result.error} (the draft is back in the composer)`,
          true,
        );
      } else {
        flash(
          state,
          context,
          result.started
            ? 'compacting the model’s history…'
            : 'the compaction runs before the running turn’s next model step',
        );
      }
      context.flush();
    });
    return;
  }
  // While a turn runs, the prompt waits on the host: the queue above the composer shows it.
  const entry = { text, mode, afterSeq: open.window.state.snapshot.endSeq };
  const queued = running(state);
  if (queued) enqueuePrompt(state, entry);
  void context.actions.send(open.id, text, mode).then((result) => {
    if (result.error !== undefined) {
      dropQueued(state, entry);
      putBack();
      flash(state, context, `not sent: ${result.error} (the draft is back in the composer)`, true);
    } else if (result.started) dropQueued(state, entry);
    else if (!queued && state.open === open) enqueuePrompt(state, entry);
    context.flush();
  });
}
