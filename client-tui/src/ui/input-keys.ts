import {
  answerablePending,
  applyAnswer,
  running,
  stop,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { startAnswers, typeAnswer } from './question-answers.js';
import type { TuiState } from './tui-state.js';

/** Keys of the compose line: send, steer, stop, answer, edit. */
export function onInput(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): void {
  const open = state.open;
  switch (key.full) {
    case 'enter':
    case 'return': {
      const text = state.input.text;
      if (!open || text.trim() === '') return;
      if (state.inputMode === 'answer') {
        const pending = answerablePending(state).find((item) => item.kind === 'question');
        if (pending?.kind === 'question') {
          state.input.set('');
          state.inputMode = 'prompt';
          applyAnswer(
            state,
            context,
            pending.questionId,
            typeAnswer(pending, startAnswers(pending, state.answers), text),
          );
          state.focus = 'conversation';
        }
        return;
      }
      send(state, context, text, 'queue');
      return;
    }
    case 'C-s':
      if (open && state.input.text.trim() !== '') send(state, context, state.input.text, 'steer');
      return;
    case 'C-x':
      stop(state, context);
      return;
    case 'escape':
      if (running(state) && state.inputMode === 'prompt') stop(state, context);
      else {
        state.inputMode = 'prompt';
        state.focus = 'conversation';
      }
      return;
    default:
      if (ch === '?' && state.input.text === '') {
        state.help = true;
        return;
      }
      state.input.edit(ch, key);
  }
}

function send(state: TuiState, context: KeyContext, text: string, mode: 'queue' | 'steer'): void {
  const open = state.open;
  if (!open) return;
  state.input.set('');
  open.view.follow();
  void context.actions.send(open.id, text, mode).then((error) => {
    if (error !== undefined) {
      if (state.input.text === '') state.input.set(text);
      state.flash = { text: `not sent: ${error}`, error: true };
    }
    context.flush();
  });
}
