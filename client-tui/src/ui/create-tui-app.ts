import { createCardCache } from '@dsh/card-models';
import { createSessionList, createSessionWindow, type BackoffOptions } from '@dsh/client-live';
import blessed, { type Widgets } from 'reblessed';
import { createTuiRegistry } from '../cards/tui-registry.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { SessionClient } from '../data/session-client.js';
import { createConversationView } from './conversation-view.js';
import { createTuiScreen, type TuiScreenOptions } from './create-screen.js';
import { drawTui, paneLayout, type TuiWidgets } from './draw-tui.js';
import { createInputLine } from './input-line.js';
import { handleKey } from './handle-key.js';
import { createRenderScheduler } from './render-scheduler.js';
import { createSessionActions } from './session-actions.js';
import type { TuiState } from './tui-state.js';

/** Options of `createTuiApp`. */
export interface TuiAppOptions extends TuiScreenOptions {
  readonly client: SessionClient;
  /** Shown in the header (the host URL). */
  readonly hostLabel: string;
  /** Session to open first; the newest session otherwise. */
  readonly sessionId?: string;
  readonly backoff?: BackoffOptions;
}

/** A running client. */
export interface TuiApp {
  readonly screen: Widgets.Screen;
  readonly state: TuiState;
  /** Draws done so far (each is one blessed render). */
  readonly renders: number;
  /** Resolves when the person quits (or `close()` is called). */
  readonly done: Promise<void>;
  /** Opens a session by id. */
  open(sessionId: string): void;
  close(): void;
}

/**
 * Starts the terminal client on a screen: the live session list and the open session's
 * window (card-models' shared data path), drawn at most once per event-loop turn.
 */
export function createTuiApp(options: TuiAppOptions): TuiApp {
  const screen = createTuiScreen(options);
  const box = (extra: Widgets.BoxOptions = {}) =>
    blessed.box({ parent: screen, tags: false, wrap: false, ...extra });
  const widgets: TuiWidgets = {
    header: box(),
    list: box(),
    separator: box(),
    conversation: box(),
    status: box(),
    input: box(),
    help: box(),
    overlay: box({ hidden: true }),
  };
  const registry = createTuiRegistry();
  const cards = createCardCache();
  const actions = createSessionActions(options.client);
  const state: TuiState = {
    focus: 'conversation',
    list: undefined,
    listCursor: 0,
    open: undefined,
    input: createInputLine(),
    inputMode: 'prompt',
    answers: undefined,
    details: undefined,
    help: false,
    flash: undefined,
    homeDir: '',
  };
  const scheduler = createRenderScheduler(() => {
    drawTui(screen, widgets, state, options.hostLabel);
    screen.render();
  });
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let closed = false;

  const open = (sessionId: string) => {
    if (state.open?.id === sessionId) return;
    state.open?.window.close();
    const summary = state.list?.sessions.get(sessionId);
    const facts = { cwd: summary?.cwd ?? '', home: state.homeDir };
    const layout = paneLayout(screen.width as number, screen.height as number);
    state.open = {
      id: sessionId,
      renderer: createConversationRenderer({ registry, card: { facts, cards } }),
      view: createConversationView(layout.bodyHeight),
      renderedFrom: undefined,
      window: createSessionWindow({
        client: options.client,
        sessionId,
        onChange: () => scheduler.schedule(),
        ...(options.backoff ? { backoff: options.backoff } : {}),
      }),
    };
    state.details = undefined;
    state.answers = undefined;
    const index = state.list?.rows.findIndex((row) => row.summary.id === sessionId) ?? -1;
    if (index >= 0) state.listCursor = index;
    scheduler.schedule();
  };

  const list = createSessionList({
    client: options.client,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    onChange: (next) => {
      state.list = next;
      state.listCursor = Math.min(state.listCursor, Math.max(0, next.rows.length - 1));
      if (!state.open && next.loaded) {
        const first = options.sessionId ?? next.rows[0]?.summary.id;
        if (first !== undefined) open(first);
      }
      scheduler.schedule();
    },
  });
  options.client.describeHost({}).then(
    (host) => {
      state.homeDir = host.homeDir;
      scheduler.schedule();
    },
    () => {},
  );

  const close = () => {
    if (closed) return;
    closed = true;
    scheduler.dispose();
    list.close();
    state.open?.window.close();
    screen.destroy();
    finish();
  };

  screen.on('keypress', (ch: string | undefined, key: Widgets.Events.IKeyEventArg) => {
    // reblessed reports a CR twice (`enter`, then `return`); act on `return` only.
    if (closed || (key.name === 'enter' && key.sequence === '\r')) return;
    const result = handleKey(state, ch, key, {
      actions,
      open,
      list,
      flush: () => scheduler.schedule(),
    });
    if (result === 'quit') close();
    else scheduler.schedule();
  });
  screen.on('resize', () => scheduler.schedule());
  if (options.mouse) {
    screen.on('wheelup', () => {
      state.open?.view.scroll(-3);
      scheduler.schedule();
    });
    screen.on('wheeldown', () => {
      state.open?.view.scroll(3);
      scheduler.schedule();
    });
  }
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
