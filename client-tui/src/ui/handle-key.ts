import { onConversation } from './conversation-keys.js';
import { copySelected } from './copy-item.js';
import { onInput } from './input-keys.js';
import {
  confirmMs,
  currentPending,
  running,
  stop,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { onPrompt } from './prompt-keys.js';
import { onPicker, openPicker } from './session-picker.js';
import { onSearchKey } from './search-keys.js';
import { onManage } from './session-manage.js';
import { onAllSearch } from './all-search.js';
import { onSessions } from './session-keys.js';
import type { Focus, TuiState } from './tui-state.js';

export type { KeyContext } from './key-actions.js';

/**
 * The panes Tab visits, in order: the composer, the prompt bar (only while something is
 * pending), the conversation and the session list (only when drawn).
 */
export function focusOrder(state: TuiState): Focus[] {
  return [
    'input',
    ...(currentPending(state) !== undefined ? (['prompt'] as const) : []),
    'conversation',
    ...(state.listShown ? (['sessions'] as const) : []),
  ];
}

const detailSteps: Readonly<Record<string, number>> = {
  j: 1,
  down: 1,
  k: -1,
  up: -1,
  pagedown: 10,
  space: 10,
  pageup: -10,
  'C-d': 10,
  'C-u': -10,
};

/** Ctrl+C: twice within `confirmMs` stops a running turn, or quits when nothing runs. */
function onInterrupt(state: TuiState, context: KeyContext): 'quit' | 'handled' {
  const now = context.now();
  const confirmed = state.confirm !== undefined && state.confirm.until >= now;
  if (running(state)) {
    if (confirmed && state.confirm?.kind === 'stop') {
      state.confirm = undefined;
      stop(state, context);
    } else state.confirm = { kind: 'stop', until: now + confirmMs };
    return 'handled';
  }
  if (confirmed && state.confirm?.kind === 'quit') return 'quit';
  state.confirm = { kind: 'quit', until: now + confirmMs };
  return 'handled';
}

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
  if (key.full === 'C-c') return onInterrupt(state, context);
  const confirm = state.confirm;
  state.confirm = undefined;
  if (confirm?.kind === 'quit-running') return ch === 'y' ? 'quit' : 'handled';
  if (state.picker) return onPicker(state, ch, key, context);
  if (onManage(state, ch, key, context)) return 'handled';
  if (context.searchAll && onAllSearch(state, ch, key, context, context.searchAll)) {
    return 'handled';
  }
  if (context.search?.onKey(state, ch, key, context)) return 'handled';
  if (state.help) {
    state.help = false;
    return 'handled';
  }
  if (state.details) {
    const step = key.full === undefined ? undefined : detailSteps[key.full];
    if (step !== undefined) state.details.top += step;
    else if (key.full === 'g' || key.full === 'home') state.details.top = 0;
    else if (key.full === 'S-g' || key.full === 'end') state.details.top = Number.MAX_SAFE_INTEGER;
    else if (key.full === 'y') copySelected(state, context, 'text');
    else if (key.full === 'S-y') copySelected(state, context, 'command');
    else if (['escape', 'q', 'enter', 'return'].includes(key.full ?? '')) state.details = undefined;
    return 'handled';
  }
  const chord = state.chord;
  state.chord = undefined;
  if (chord === 'C-x') {
    if (key.full === 'C-e') context.editDraft();
    return 'handled';
  }
  if (key.full === 'f1') {
    state.help = true;
    return 'handled';
  }
  if (key.full === 'C-o') {
    openPicker(state);
    return 'handled';
  }
  if (key.full === 'tab' || key.full === 'S-tab') {
    const order = focusOrder(state);
    const at = Math.max(0, order.indexOf(state.focus));
    const next = order[(at + (key.full === 'tab' ? 1 : order.length - 1)) % order.length] as Focus;
    state.focus = next;
    if (next === 'prompt' && state.prompt) state.prompt = { ...state.prompt, armedAt: 0 };
    if (next !== 'input') state.inputMode = 'prompt';
    return 'handled';
  }
  switch (state.focus) {
    case 'input':
      return onInput(state, ch, key, context);
    case 'prompt':
      if (onPrompt(state, ch, key, context)) return 'handled';
      return onConversation(state, undefined, key, context);
    case 'sessions':
      return onSessions(state, ch, key, context);
    case 'conversation':
      if (onSearchKey(state, key, context)) return 'handled';
      return onConversation(state, ch, key, context);
    default: {
      const unknown: never = state.focus;
      throw new Error(`unknown focus ${String(unknown)}`);
    }
  }
}
