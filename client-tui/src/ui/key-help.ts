/** Every key binding, as the `?` screen lists them (pane, keys, what they do). */
export const keyHelp: readonly (readonly [string, string, string])[] = [
  ['any', 'Tab / S-Tab', 'next / previous pane (sessions, conversation, input)'],
  ['any', '?', 'this help (any key closes it)'],
  ['any', 'C-c', 'quit'],
  ['sessions', 'j k ↑ ↓', 'move'],
  ['sessions', 'Enter', 'open the session'],
  ['sessions', 'n', 'new session (in the host default directory)'],
  ['conversation', 'j k ↑ ↓', 'previous / next card'],
  ['conversation', 'PgUp PgDn C-u C-d', 'scroll a page; PgUp at the top loads older'],
  ['conversation', 'g Home / G End', 'top (loads older) / follow the bottom'],
  ['conversation', 'Enter', 'details of the selected card (Esc or q closes)'],
  ['conversation', 'o', "the file's read view: the latest read of the card's path"],
  ['conversation', 'i', 'compose'],
  ['conversation', 'y a n', 'approval: allow, allow for this session, deny'],
  ['conversation', '1-9', 'question: choose an option (Enter confirms several)'],
  ['conversation', 't / x', 'question: type an answer / decline'],
  ['conversation', 's / C-x', 'stop the running turn'],
  ['conversation', 'q', 'quit'],
  ['input', 'Enter', 'send (queued when a turn is running)'],
  ['input', 'C-s', 'steer the running turn'],
  ['input', 'C-x / Esc', 'stop the running turn (Esc leaves the input when idle)'],
  ['input', 'C-a C-e C-u C-k C-w', 'edit the line'],
];

/** The one-line hint for the focused pane, shown at the bottom. */
export function helpLine(focus: 'sessions' | 'conversation' | 'input'): string {
  switch (focus) {
    case 'sessions':
      return 'j/k move  Enter open  n new  Tab next pane  ? help  C-c quit';
    case 'conversation':
      return 'j/k cards  Enter details  PgUp older  End follow  i compose  s stop  ? help';
    case 'input':
      return 'Enter send  C-s steer  C-x stop  Tab leave  ? help (when empty)';
    default: {
      const unknown: never = focus;
      throw new Error(`unknown focus ${String(unknown)}`);
    }
  }
}
