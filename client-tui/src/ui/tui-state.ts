import type { SessionListState, SessionWindow, SessionWindowState } from '@dsh/client-live';
import type { ConversationRenderer } from '../conversation/render-conversation.js';
import type { InputLine } from './input-line.js';
import type { ConversationView } from './conversation-view.js';
import type { QuestionAnswers } from './question-answers.js';

/** The pane with the keyboard. */
export type Focus = 'sessions' | 'conversation' | 'input';

/** The open session: its live window, renderer memo and scroll state. */
export interface OpenSession {
  readonly id: string;
  readonly window: SessionWindow;
  readonly renderer: ConversationRenderer;
  readonly view: ConversationView;
  /** The window state and width the view's items were rendered from. */
  renderedFrom: { state: SessionWindowState; width: number; running: boolean } | undefined;
}

/** Everything the client draws, mutated by keys and data, drawn by `drawTui`. */
export interface TuiState {
  focus: Focus;
  list: SessionListState | undefined;
  listCursor: number;
  open: OpenSession | undefined;
  input: InputLine;
  /** What Enter in the input does: send a prompt, or answer the current question. */
  inputMode: 'prompt' | 'answer';
  answers: QuestionAnswers | undefined;
  /** The details overlay: its lines come from the selected item; `top` is its scroll. */
  details: { key: string; top: number } | undefined;
  help: boolean;
  /** A one-line message (action failures, confirmations), cleared by the next key. */
  flash: { text: string; error: boolean } | undefined;
  homeDir: string;
}
