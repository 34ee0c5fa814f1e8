import {
  defaultTerminalCols,
  terminalLines,
  type CardCache,
  type PathFacts,
} from '@dsh/card-models';
import type { ConversationItem } from '../conversation/conversation-item.js';
import { sanitizeText } from '../text/sanitize-text.js';
import { openSessionFacts } from './file-view.js';
import { flash, type KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

/** What to copy of an item: its text or output, or the command or arguments of a card. */
export type CopyWhat = 'text' | 'command';

/** Text copied at most; longer text is cut (terminals and tmux limit OSC 52 too). */
export const copyLimit = 512 * 1024;

/** What copying gives: the text and what it is, for the status line. */
export interface CopyTarget {
  readonly text: string;
  readonly what: string;
}

/**
 * The text of an item to copy: a message as written (its Markdown source); for a card, its
 * output as a terminal shows it (colours and cursor movement replayed, then plain text) or
 * its result text, or with `command` the command line of a terminal card or the pretty
 * arguments of any other. Undefined when the item has none.
 */
export function copyTarget(
  item: ConversationItem,
  what: CopyWhat,
  cards: CardCache,
  facts: PathFacts,
): CopyTarget | undefined {
  const block = item.block;
  if (block === undefined) {
    return item.text === undefined || item.text === ''
      ? undefined
      : { text: item.text, what: 'the message' };
  }
  const card = cards.card(block, facts);
  const body = card.body;
  if (what === 'command') {
    if (body.kind === 'terminal' && body.command !== '') {
      return { text: body.command, what: 'the command' };
    }
    if (body.kind === 'code' && body.code !== '') return { text: body.code, what: 'the program' };
    return card.row.argsText === ''
      ? undefined
      : { text: card.row.argsText, what: 'the arguments' };
  }
  if (body.kind === 'terminal' && body.output !== undefined) {
    const lines = terminalLines(body, { cols: defaultTerminalCols });
    const text = lines.map((line) => line.text).join('\n');
    return { text: sanitizeText(text), what: 'the output' };
  }
  const result = card.row.resultText !== '' ? card.row.resultText : card.row.errorText;
  return result === '' ? undefined : { text: sanitizeText(result), what: 'the output' };
}

/**
 * The OSC 52 sequence that puts `text` on the system clipboard (`c`), base64 encoded: it
 * works over SSH and inside tmux with `set-clipboard on`. Only an explicit copy writes it.
 */
export function clipboardSequence(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/**
 * Copies the selected item (or the one the details view shows) to the clipboard and says
 * what was copied; `what` picks the text/output or the command/arguments.
 */
export function copySelected(state: TuiState, context: KeyContext, what: CopyWhat): void {
  const view = state.open?.view;
  const facts = openSessionFacts(state);
  const key = state.details?.key;
  const item =
    key !== undefined
      ? view?.items.find((candidate) => candidate.key === key)
      : view?.items[view.selected];
  const target = item && facts ? copyTarget(item, what, context.cards, facts) : undefined;
  if (target === undefined) {
    flash(
      state,
      context,
      what === 'command' ? 'no command to copy here' : 'nothing to copy here',
      true,
    );
    return;
  }
  const cut = target.text.length > copyLimit;
  const text = cut ? target.text.slice(0, copyLimit) : target.text;
  context.clipboard(text);
  const size =
    text.length < 1000
      ? `${text.length} characters`
      : `${(text.length / 1000).toFixed(1)}k characters`;
  flash(state, context, `copied ${target.what} (${size}${cut ? ', cut' : ''}) to the clipboard`);
}
