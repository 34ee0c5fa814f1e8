import { genericRow, type PathFacts } from '@dsh/card-models';
import type { ConversationItem } from '../conversation/conversation-item.js';
import type { TuiState } from './tui-state.js';

/**
 * The item that shows the file a card names: the latest `read` of that path in the
 * window, else the latest card that touched it. `undefined` when the card names no file.
 */
export function fileViewOf(
  items: readonly ConversationItem[],
  selected: ConversationItem,
  facts: PathFacts,
): ConversationItem | undefined {
  if (selected.block === undefined) return undefined;
  const path = genericRow(selected.block, facts).path;
  if (path === undefined) return undefined;
  const touching = items.filter(
    (item) => item.block !== undefined && genericRow(item.block, facts).path === path,
  );
  return touching.findLast((item) => item.block?.name === 'read') ?? touching.at(-1);
}

/** The path facts of the open session, as its cards are drawn with. */
export function openSessionFacts(state: TuiState): PathFacts | undefined {
  if (state.open === undefined) return undefined;
  const summary = state.list?.sessions.get(state.open.id);
  return { cwd: summary?.cwd ?? '', home: state.homeDir };
}
