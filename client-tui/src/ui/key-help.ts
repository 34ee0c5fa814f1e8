import type { Focus } from './tui-state.js';

/** Every key binding, as the help screen lists them (pane, keys, what they do). */
export const keyHelp: readonly (readonly [string, string, string])[] = [
  ['any', 'Tab / S-Tab', 'next / previous pane (prompt, composer, conversation, sessions)'],
  ['any', 'F1', 'this help (any key closes it); ? too outside the composer'],
  ['any', 'C-c C-c', 'stop the running turn (the second C-c within 3 s confirms)'],
  ['any', 'C-c C-c', 'quit, when nothing runs'],
  ['any', 'C-o', 'pick a session: type to filter, ↑ ↓ move, Enter open, Esc close'],
  ['composer', 'Enter', 'send (queued when a turn is running)'],
  ['composer', 'C-j / M-Enter', 'new line (the composer grows to 8 rows, then scrolls)'],
  ['composer', 'C-s', 'steer the running turn'],
  [
    'composer',
    '/compact [what to keep]',
    "Enter: compact the model's history (a divider shows it)",
  ],
  ['composer', 'C-g / C-x C-e', 'edit the draft in $VISUAL / $EDITOR'],
  ['composer', 'Esc', 'leave the composer (stops nothing)'],
  ['composer', 'C-d', 'quit when the draft is empty (asks while a turn runs)'],
  ['composer', '↑ ↓ (empty draft)', 'earlier prompts of this session; ↓ past the newest empties'],
  ['composer', 'C-a C-e C-u C-k C-w', 'edit the line; ↑ ↓ move between rows; paste keeps lines'],
  ['prompt', 'y / a / n', 'approval: allow once / allow for this session / deny'],
  ['prompt', '1-9 Enter', 'question: choose an option (Enter confirms several)'],
  ['prompt', 't / x', 'question: type an answer / decline'],
  ['prompt', 'Esc', 'later: back to the composer (Tab returns to the prompt)'],
  ['conversation', 'j k ↑ ↓', 'previous / next card'],
  ['conversation', 'PgUp PgDn C-u C-d', 'scroll a page; PgUp at the top loads older'],
  ['conversation', 'g Home / G End', 'top (loads older) / follow the bottom'],
  ['conversation', 'Enter', 'details of the selected card (Esc or q closes)'],
  ['conversation', 'o', "the file's read view: the latest read of the card's path"],
  ['conversation', 'y / Y', 'copy the message or output / the command (OSC 52 clipboard)'],
  ['conversation', 'l', "open the session a card leads to (a sub-agent's, a parent)"],
  ['conversation', 'u', "open the parent of a sub-agent's session"],
  ['conversation', 'i / Esc', 'back to the composer'],
  ['conversation', 'r', 'reconnect now'],
  ['conversation', 'q', 'quit (asks while a turn runs)'],
  ['sessions', 'j k ↑ ↓', 'move'],
  ['sessions', 'Enter', 'open the session'],
  ['sessions', 'n', 'new session (in the host default directory)'],
  ['sessions', '/', 'search every session: Enter runs, ↑ ↓ pick a hit, Enter opens it there'],
  ['sessions', 'M-r / F2', 'rename (Enter sets the title, empty: back to the first prompt)'],
  ['sessions', 'M-a', 'archive / unarchive'],
  ['sessions', '.', 'show / hide archived sessions'],
  ['sessions', 'M-d / Delete', 'delete (asks, naming the session: y deletes)'],
];

/** The one-line hint for the focused pane, shown at the bottom. */
export function helpLine(focus: Focus): string {
  switch (focus) {
    case 'sessions':
      return 'j/k move  Enter open  / search all  n new  M-r rename  M-a archive  M-d delete  . archived  ? help';
    case 'conversation':
      return 'j/k cards  Enter details  y copy  PgUp older  End follow  i compose  C-o sessions  ? help';
    case 'input':
      return 'Enter send  C-j newline  C-s steer  C-g editor  Esc leave  C-c C-c stop  F1 help';
    case 'prompt':
      return 'answer with the keys above  Esc later  Tab next pane  F1 help';
    default: {
      const unknown: never = focus;
      throw new Error(`unknown focus ${String(unknown)}`);
    }
  }
}
