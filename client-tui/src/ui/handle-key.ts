import { onConversation } from './conversation-keys.js';
import { onInput } from './input-keys.js';
import { onSessions } from './session-keys.js';
import type { Key, KeyContext } from './key-actions.js';
import type { Focus, TuiState } from './tui-state.js';

export type { KeyContext } from './key-actions.js';

const focusOrder: readonly Focus[] = ['sessions', 'conversation', 'input'];

/**
 * Applies one key to the client state (SPEC 9: keyboard first). Returns `quit` when the
 * person asked to leave; the caller redraws after every key.
 */
export function handleKey(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): 'quit' | 'handled' {
  state.flash = undefined;
  if (key.full === 'C-c') return 'quit';
  if (state.help) {
    state.help = false;
    return 'handled';
  }
  if (state.details) {
    const step = {
      j: 1,
      down: 1,
      k: -1,
      up: -1,
      pagedown: 10,
      space: 10,
      pageup: -10,
      'C-d': 10,
      'C-u': -10,
    } as Record<string, number>;
    if (key.full !== undefined && step[key.full] !== undefined)
      state.details.top += step[key.full] as number;
    else if (key.full === 'g' || key.full === 'home') state.details.top = 0;
    else if (key.full === 'S-g' || key.full === 'end') state.details.top = Number.MAX_SAFE_INTEGER;
    else if (
      key.full === 'escape' ||
      key.full === 'q' ||
      key.full === 'enter' ||
      key.full === 'return'
    )
      state.details = undefined;
    return 'handled';
  }
  if (key.full === 'tab' || key.full === 'S-tab') {
    const at = focusOrder.indexOf(state.focus);
    const next = (at + (key.full === 'tab' ? 1 : focusOrder.length - 1)) % focusOrder.length;
    state.focus = focusOrder[next] as Focus;
    if (state.focus !== 'input') state.inputMode = 'prompt';
    return 'handled';
  }
  if (state.focus === 'input') onInput(state, ch, key, context);
  else if (state.focus === 'sessions') {
    if (key.full === 'q') return 'quit';
    onSessions(state, ch, key, context);
  } else {
    if (key.full === 'q') return 'quit';
    onConversation(state, ch, key, context);
  }
  return 'handled';
}
