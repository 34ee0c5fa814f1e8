import { oneLine } from '../cards/text-lines.js';
import { truncateLine } from '../text/text-width.js';
import { seg, plainText } from '../text/styled-line.js';
import { currentPending, pendingId, running } from './key-actions.js';
import { sessionTitle } from './session-title.js';
import { settleQueue } from './prompt-queue.js';
import type { TuiState } from './tui-state.js';

/** Options of `createSessionObserver`. */
export interface SessionObserverOptions {
  /** Writes the client's own control sequences (title, bell) to the terminal. */
  readonly write: (data: string) => void;
  /** Rings the terminal bell when the open session starts waiting for the person. */
  readonly bell: boolean;
  readonly now: () => number;
}

/** Follows changes of the data the client shows and acts on their transitions. */
export interface SessionObserver {
  /** Looks at the state after a change (data or keys). */
  observe(state: TuiState): void;
  /** Gives the window its title from before the client started. */
  dispose(): void;
}

/** Window titles are cut to this many cells. */
const titleCells = 80;

/** `ESC ] 2 ; title BEL` with a title that is one sanitized line (no escape can ride along). */
export function titleSequence(title: string): string {
  return `\x1b]2;${plainText(truncateLine([seg(oneLine(title))], titleCells))}\x07`;
}

/**
 * Creates the observer: it keeps the window title on the open session's title (the
 * client's own OSC 2; tool output never reaches the terminal), notes when the open session
 * starts running (for the working time), settles the visible queue, and rings the bell,
 * when asked to, as a new approval or question starts waiting. The terminal's title stack
 * (XTWINOPS 22/23) keeps the title the person had, restored on `dispose`.
 */
export function createSessionObserver(options: SessionObserverOptions): SessionObserver {
  let title: string | undefined;
  let openId: string | undefined;
  let wasRunning = false;
  let waitingFor: string | undefined;
  // Items already waiting when a session's first page arrives ring no bell.
  let primed = false;
  options.write('\x1b[22;2t');
  return {
    observe(state) {
      const open = state.open;
      if (open?.id !== openId) {
        openId = open?.id;
        wasRunning = false;
        state.runningSince = undefined;
        waitingFor = undefined;
        primed = false;
      }
      const summary = open ? state.list?.sessions.get(open.id) : undefined;
      const nextTitle = `dsh: ${open ? sessionTitle(state, open.id, summary) : 'no session'}`;
      if (nextTitle !== title) {
        title = nextTitle;
        options.write(titleSequence(nextTitle));
      }
      const isRunning = running(state);
      if (isRunning && !wasRunning) state.runningSince = options.now();
      if (!isRunning) state.runningSince = undefined;
      wasRunning = isRunning;
      settleQueue(state);
      const waiting = currentPending(state);
      const id = waiting === undefined ? undefined : pendingId(waiting);
      if (primed && id !== undefined && id !== waitingFor && options.bell) options.write('\x07');
      waitingFor = id;
      if (open?.window.state.opened === true && state.list?.loaded === true) primed = true;
    },
    dispose() {
      options.write('\x1b[23;2t');
    },
  };
}
