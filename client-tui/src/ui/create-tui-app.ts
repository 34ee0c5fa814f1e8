import { createCardCache, type CardCache } from '@dsh/card-models';
import type { BackoffOptions, SessionList } from '@dsh/client-live';
import type { Readable, Writable } from 'node:stream';
import type { Widgets } from 'reblessed';
import { createTuiRegistry } from '../cards/tui-registry.js';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import type { ColorDepth } from '../text/color-depth.js';
import type { SessionClient } from '../data/session-client.js';
import { disableBracketedPaste, enableBracketedPaste, filterPastes } from './bracketed-paste.js';
import { clipboardSequence } from './copy-item.js';
import { createTuiScreen, listenToScreen } from './create-screen.js';
import { createDraftEditor, type DraftEditor } from './draft-editor.js';
import { createDrawLoop, type DrawLoop } from './draw-loop.js';
import { paneLayout } from './draw-tui.js';
import type { SuspendableProgram } from './edit-in-editor.js';
import { closeWindows, createFarReading } from './far-reading.js';
import { followSessions } from './follow-sessions.js';
import { handleKey, type KeyContext } from './handle-key.js';
import { openSession, reopenAtTail, type OpenDeps } from './open-session.js';
import { createSessionActions } from './session-actions.js';
import { createTuiSearch } from './session-search.js';
import { forgetFailureOnReconnect, noteReconnects } from './status-line.js';
import { createTuiState, type TuiState } from './tui-state.js';

/** Options of `createTuiApp`. */
export interface TuiAppOptions {
  readonly input: Readable & { setRawMode?: (mode: boolean) => unknown };
  readonly output: Writable;
  readonly colorDepth: ColorDepth;
  /** Mouse reporting (off by default, so the terminal's own text selection works). */
  readonly mouse: boolean;
  readonly client: SessionClient;
  /** Shown in the header (the host URL). */
  readonly hostLabel: string;
  /** Session to open first; the newest session otherwise. */
  readonly sessionId?: string;
  readonly backoff?: BackoffOptions;
  /** Where `$VISUAL` / `$EDITOR` are read (the process environment by default). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock (ms since the epoch); tests may pass their own. */
  readonly now?: () => number;
  /** Ring the terminal bell when the open session starts waiting for the person (off by default). */
  readonly bell?: boolean;
  /**
   * Whether `$EDITOR` may run (on by default). Off for a terminal that is not this
   * process's own, such as an SSH channel: the editor would take the host's terminal.
   */
  readonly editor?: boolean;
}

/** A running client. */
export interface TuiApp {
  readonly screen: Widgets.Screen;
  readonly state: TuiState;
  /** Draws done so far (each is one frame written). */
  readonly renders: number;
  /** Resolves when the person quits (or `close()` is called). */
  readonly done: Promise<void>;
  /** Opens a session by id. */
  open(sessionId: string): void;
  close(): void;
}

/** The parts of a running client that its keys and data act on. */
interface AppParts {
  readonly options: TuiAppOptions;
  readonly state: TuiState;
  readonly screen: Widgets.Screen;
  readonly program: SuspendableProgram;
  readonly loop: DrawLoop;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
}

/**
 * Starts the terminal client: the live session list and the open session's window
 * (client-live's shared data path), composed into frames the client draws itself and
 * written at most once per event-loop turn. reblessed keeps the terminal (raw mode,
 * alternate screen, keys, resize); pastes are read before it sees them.
 */
export function createTuiApp(options: TuiAppOptions): TuiApp {
  const now = options.now ?? Date.now;
  const pastes = filterPastes(options.input, (text, cut) => draft.paste(text, cut));
  const screen = createTuiScreen({ ...options, input: pastes.input });
  const program = (screen as unknown as { program: SuspendableProgram }).program;
  program._write(enableBracketedPaste);
  const state = createTuiState();
  const registry = createTuiRegistry();
  const cards = createCardCache();
  const loop = createDrawLoop({
    state,
    screen,
    write: (data) => program._write(data),
    colorDepth: options.colorDepth,
    hostLabel: options.hostLabel,
    registry,
    cards,
    bell: options.bell ?? false,
    now,
  });
  const parts: AppParts = { options, state, screen, program, loop, registry, cards };
  const { open, list, context } = connect(parts, now, () => void draft.edit());
  let closed = false;
  const draft = editorOf(parts, context, () => closed);
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const onExit = () => options.output.write(disableBracketedPaste);
  process.once('exit', onExit);
  const close = () => {
    if (closed) return;
    closed = true;
    loop.dispose();
    list.close();
    if (state.open !== undefined) closeWindows(state.open);
    program._write(disableBracketedPaste);
    process.off('exit', onExit);
    pastes.dispose();
    screen.destroy();
    finish();
  };
  listen(parts, context, { draft, closed: () => closed, close });
  loop.scheduler.schedule();
  return {
    screen,
    state,
    get renders() {
      return loop.scheduler.renders;
    },
    done,
    open,
    close,
  };
}

/**
 * The client's data and what keys act on: opening a session (its live window), the
 * session list, the open session's search and the key context over them.
 */
function connect(
  parts: AppParts,
  now: () => number,
  editDraft: () => void,
): { open(sessionId: string): void; list: SessionList; context: KeyContext } {
  const { options, state, screen, loop, registry, cards } = parts;
  const schedule = () => loop.scheduler.schedule();
  const bodyHeight = () => paneLayout(screen.width as number, screen.height as number).bodyHeight;
  let wasLive = false;
  const onChange = () => {
    wasLive = forgetFailureOnReconnect(state, wasLive);
    noteReconnects(state, now());
    schedule();
  };
  const deps = (): OpenDeps => ({
    client: options.client,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    registry,
    cards,
    bodyHeight: bodyHeight(),
    onChange,
  });
  const open = (sessionId: string) => {
    openSession(state, sessionId, deps());
    schedule();
  };
  const list = followSessions(state, options, { open, onChange, redraw: schedule });
  const search = createTuiSearch({ client: options.client, registry, cards, bodyHeight, onChange });
  const context: KeyContext = {
    search,
    searchAll: { client: options.client, openHit: (...args) => search.openHit(...args) },
    actions: createSessionActions(options.client),
    open,
    list,
    now,
    flush: schedule,
    editDraft,
    releaseOlder: () => reopenAtTail(state, deps()),
    reading: createFarReading(deps),
    cards,
    clipboard: (text) => parts.program._write(clipboardSequence(text)),
  };
  return { open, list, context };
}

/** The draft's `$EDITOR` and pastes, over the client's terminal. */
function editorOf(parts: AppParts, context: KeyContext, closed: () => boolean): DraftEditor {
  const { options, state, program, loop } = parts;
  return createDraftEditor({
    program,
    input: options.input,
    env: options.env ?? process.env,
    editor: options.editor ?? true,
    state,
    context: () => context,
    invalidate: () => loop.writer.invalidate(),
    schedule: () => loop.scheduler.schedule(),
    closed,
  });
}

/** Keys, resizes and the wheel of the screen, applied to the state and redrawn. */
function listen(
  parts: AppParts,
  context: KeyContext,
  app: { draft: DraftEditor; closed(): boolean; close(): void },
): void {
  const { state, screen, loop, options } = parts;
  listenToScreen(
    screen,
    {
      key: (ch, key) => {
        if (app.closed() || app.draft.editing) return;
        if (handleKey(state, ch, key, context) === 'quit') app.close();
        else loop.scheduler.schedule();
      },
      resize: () => {
        loop.writer.invalidate();
        loop.scheduler.schedule();
      },
      wheel: (rows) => {
        state.open?.view.scroll(rows);
        if (rows > 0) context.reading?.newer(state);
        else context.reading?.older(state);
        loop.scheduler.schedule();
      },
    },
    options.mouse,
  );
}
