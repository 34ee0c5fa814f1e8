import type { ConversationSnapshot } from '@dsh/card-models';
import { oneLine } from '../cards/text-lines.js';
import type { TuiState } from './tui-state.js';

/** Nodes a window's start is searched for its first prompt (a session opens with one). */
const searchNodes = 50;
/** A prompt as a title is cut to this many characters (the layout truncates it further). */
const titleChars = 80;

// The first prompts the client has seen, per client state, by session id: a session keeps
// the title the client found once its window moved on or another session opened.
const known = new WeakMap<TuiState, Map<string, string>>();

/** The first prompt of a window that starts at the session's beginning, as one line. */
export function firstPrompt(snapshot: ConversationSnapshot): string | undefined {
  if (snapshot.firstSeq !== 0) return undefined;
  for (const node of snapshot.nodes.slice(0, searchNodes)) {
    if (node.kind !== 'user') continue;
    const text = node.content
      .flatMap((block) => (block.block.case === 'text' ? [block.block.value.text] : []))
      .join(' ');
    const line = oneLine(text).trim();
    return line === '' ? undefined : line.slice(0, titleChars);
  }
  return undefined;
}

/**
 * The title a session shows: its summary's (the host's), else the first prompt the client
 * holds for it (the open window's, or one it saw before), else its id. A session made
 * with `n` has no title until the host gives it one; its first prompt says what it is.
 */
export function sessionTitle(
  state: TuiState,
  id: string,
  summary: { readonly title: string } | undefined,
): string {
  if (summary !== undefined && summary.title !== '') return summary.title;
  let titles = known.get(state);
  if (titles === undefined) {
    titles = new Map();
    known.set(state, titles);
  }
  const open = state.open;
  if (open !== undefined && !titles.has(open.id)) {
    const prompt = firstPrompt(open.window.state.snapshot);
    if (prompt !== undefined) titles.set(open.id, prompt);
  }
  return titles.get(id) ?? id;
}
