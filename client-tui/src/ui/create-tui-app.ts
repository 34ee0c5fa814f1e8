import { createTuiSearch } from './session-search.js';
import { createCardCache } from '@dsh/card-models';
import { createSessionList, type BackoffOptions, type SessionList } from '@dsh/client-live';
import type { Readable, Writable } from 'node:stream';
import type { Widgets } from 'reblessed';
import { createTuiRegistry } from '../cards/tui-registry.js';
import type { ColorDepth } from '../text/color-depth.js';
import type { SessionClient } from '../data/session-client.js';
import { disableBracketedPaste, enableBracketedPaste, filterPastes } from './bracketed-paste.js';
import { createTuiScreen, listenToScreen } from './create-screen.js';
import { drawTui, paneLayout, type DrawContext } from './draw-tui.js';
import { prepareDraw } from './prepare-draw.js';
import { createDraftEditor } from './draft-editor.js';
import type { SuspendableProgram } from './edit-in-editor.js';
import { handleKey, type KeyContext } from './handle-key.js';
import { syncPrompt } from './prompt-keys.js';
import { createRenderScheduler } from './render-scheduler.js';
import { createSessionActions } from './session-actions.js';
import { createTerminalWriter } from './terminal-writer.js';
import type { Frame } from './frame.js';
import { createTuiState, type TuiState } from './tui-state.js';
import { createExpiryTimer } from './expiry-timer.js';
import { forgetFailureOnReconnect } from './status-line.js';
import { openSession } from './open-session.js';
import { createSessionObserver } from './session-observer.js';
import { clipboardSequence } from './copy-item.js';
import { listRows, replaceList } from './list-rows.js';

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
  const writer = createTerminalWriter((text) => program._write(text), options.colorDepth);
  program._write(enableBracketedPaste);
  const registry = createTuiRegistry();
  const cards = createCardCache();
  const state = createTuiState();
  const observer = createSessionObserver({
    write: (data) => program._write(data),
    bell: options.bell ?? false,
    now,
  });
  const expiry = createExpiryTimer(state, now, () => scheduler.schedule());
  const scheduler = createRenderScheduler(() => {
    const t = now();
    observer.observe(state);
    syncPrompt(state, t);
    writer.draw(frameOf(state, screen, { hostLabel: options.hostLabel, now: t, registry, cards }));
    expiry.arm();
  });
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let closed = false;
  let wasLive = false;
  const onChange = () => {
    wasLive = forgetFailureOnReconnect(state, wasLive);
    scheduler.schedule();
  };
  const open = (sessionId: string) => {
    openSession(state, sessionId, {
      client: options.client,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      registry,
      cards,
      bodyHeight: paneLayout(screen.width as number, screen.height as number).bodyHeight,
      onChange,
    });
    scheduler.schedule();
  };
  const list = followSessions(state, options, {
    open,
    onChange,
    redraw: () => scheduler.schedule(),
  });
  const search = createTuiSearch({
    client: options.client,
    registry,
    cards,
    bodyHeight: () => paneLayout(screen.width as number, screen.height as number).bodyHeight,
    onChange,
  });
  const context: KeyContext = {
    search,
    searchAll: { client: options.client, openHit: (...args) => search.openHit(...args) },
    actions: createSessionActions(options.client),
    open,
    list,
    now,
    flush: () => scheduler.schedule(),
    editDraft: () => void draft.edit(),
    cards,
    clipboard: (text) => program._write(clipboardSequence(text)),
  };
  const draft = createDraftEditor({
    program,
    input: options.input,
    env: options.env ?? process.env,
    editor: options.editor ?? true,
    state,
    context: () => context,
    invalidate: () => writer.invalidate(),
    schedule: () => scheduler.schedule(),
    closed: () => closed,
  });
  const onExit = () => options.output.write(disableBracketedPaste);
  process.once('exit', onExit);

  const close = () => {
    if (closed) return;
    closed = true;
    expiry.dispose();
    scheduler.dispose();
    list.close();
    state.open?.window.close();
    program._write(disableBracketedPaste);
    observer.dispose();
    process.off('exit', onExit);
    pastes.dispose();
    screen.destroy();
    finish();
  };

  listenToScreen(
    screen,
    {
      key: (ch, key) => {
        if (closed || draft.editing) return;
        if (handleKey(state, ch, key, context) === 'quit') close();
        else scheduler.schedule();
      },
      resize: () => {
        writer.invalidate();
        scheduler.schedule();
      },
      wheel: (rows) => {
        state.open?.view.scroll(rows);
        scheduler.schedule();
      },
    },
    options.mouse,
  );
  scheduler.schedule();

  return {
    screen,
    state,
    get renders() {
      return scheduler.renders;
    },
    done,
    open,
    close,
  };
}

/**
 * Follows the host's session list into `state` (keeping the list cursor on a row) and
 * opens the first session once it loads: `options.sessionId`, else the newest. The home
 * folder for path facts arrives with the host's description.
 */
function followSessions(
  state: TuiState,
  options: TuiAppOptions,
  on: { open(sessionId: string): void; onChange(): void; redraw(): void },
): SessionList {
  const list = createSessionList({
    client: options.client,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    includeArchived: true,
    onChange: (next) => {
      replaceList(state, next);
      if (!state.open && next.loaded) {
        const first = options.sessionId ?? listRows(state)[0]?.summary.id;
        if (first !== undefined) on.open(first);
      }
      on.onChange();
    },
  });
  options.client.describeHost({}).then(
    (host) => {
      state.homeDir = host.homeDir;
      state.canPrompt = host.capabilities.includes('prompt');
      on.redraw();
    },
    () => {},
  );
  return list;
}

/** One frame of `state` at the screen's size: `prepareDraw` updates, then `drawTui` reads. */
function frameOf(
  state: TuiState,
  screen: Widgets.Screen,
  parts: Omit<DrawContext, 'cols' | 'rows'>,
): Frame {
  const context = { ...parts, cols: screen.width as number, rows: screen.height as number };
  prepareDraw(state, context);
  return drawTui(state, context);
}
