import { flattenContent } from '@dsh/card-models';
import type { TuiState } from './tui-state.js';

/** Browsing earlier prompts in the composer: the entries (oldest first) and where we are. */
export interface HistoryBrowse {
  readonly entries: readonly string[];
  readonly index: number;
  /** The draft as the composer shows the recalled entry (an edit ends the browsing). */
  readonly shown: string;
}

/**
 * The prompts a person can recall: the open session's user and steering messages in the
 * window, oldest first, then what this client queued that has not arrived yet; a prompt
 * repeated right after itself is kept once. It needs no history file and works the same
 * over SSH, for prompts typed in any client.
 */
export function historyEntries(state: TuiState): string[] {
  const entries: string[] = [];
  const add = (text: string) => {
    if (text.trim() !== '' && entries[entries.length - 1] !== text) entries.push(text);
  };
  for (const node of state.open?.window.state.snapshot.nodes ?? []) {
    if (node.kind === 'user' && (node.source === 'user' || node.source === 'queued')) {
      add(flattenContent(node.content));
    } else if (node.kind === 'steering') add(flattenContent(node.content));
  }
  for (const queued of state.queue) add(queued.text);
  return entries;
}

/**
 * Up in an empty composer recalls the latest prompt, Up again (the recalled text
 * unchanged) the one before; Down goes back towards the newest, and past it to an empty
 * draft. Returns false when the key is not a history move (the composer handles it).
 */
export function recallHistory(state: TuiState, direction: 'up' | 'down'): boolean {
  const browse = state.history;
  const text = state.composer.text;
  let entries: readonly string[];
  let index: number;
  if (browse === undefined || browse.shown !== text) {
    state.history = undefined;
    if (direction === 'down' || text !== '') return false;
    entries = historyEntries(state);
    if (entries.length === 0) return false;
    index = entries.length - 1;
  } else {
    entries = browse.entries;
    index = Math.max(0, browse.index + (direction === 'up' ? -1 : 1));
    if (index >= entries.length) {
      state.history = undefined;
      state.composer.set('');
      return true;
    }
  }
  state.composer.set(entries[index] ?? '');
  state.history = { entries, index, shown: state.composer.text };
  return true;
}
