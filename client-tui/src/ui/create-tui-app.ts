import {
  createCardCache,
  createSessionList,
  createSessionWindow,
  type BackoffOptions,
} from '@dsh/card-models';
import type { Readable, Writable } from 'node:stream';
import type { Widgets } from 'reblessed';
import { createTuiRegistry } from '../cards/tui-registry.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { ColorDepth } from '../text/color-depth.js';
import type { SessionClient } from '../data/session-client.js';
import { disableBracketedPaste, enableBracketedPaste, filterPastes } from './bracketed-paste.js';
import { createComposer } from './composer.js';
import { createConversationView } from './conversation-view.js';
import { createTuiScreen } from './create-screen.js';
import { drawTui, paneLayout } from './draw-tui.js';
import { editInEditor } from './edit-in-editor.js';
import { handleKey, type KeyContext } from './handle-key.js';
import { flash } from './key-actions.js';
import { syncPrompt } from './prompt-keys.js';
import { createRenderScheduler } from './render-scheduler.js';
import { createSessionActions } from './session-actions.js';
import { createTerminalWriter } from './terminal-writer.js';
import type { TuiState } from './tui-state.js';

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
 * (card-models' shared data path), composed into frames the client draws itself and
 * written at most once per event-loop turn. reblessed keeps the terminal (raw mode,
 * alternate screen, keys, resize); pastes are read before it sees them.
 */
export function createTuiApp(options: TuiAppOptions): TuiApp {
  const now = options.now ?? Date.now;
  const pastes = filterPastes(options.input, (text, cut) => onPaste(text, cut));
  const screen = createTuiScreen({ ...options, input: pastes.input });
  const program = (
    screen as unknown as { program: { _write(text: string): void; pause(): () => void } }
  ).program;
  const writer = createTerminalWriter((text) => program._write(text), options.colorDepth);
  program._write(enableBracketedPaste);
  const registry = createTuiRegistry();
  const cards = createCardCache();
  const actions = createSessionActions(options.client);
  const state: TuiState = {
    focus: 'input',
    list: undefined,
    listCursor: 0,
    open: undefined,
    composer: createComposer(),
    inputMode: 'prompt',
    answers: undefined,
    details: undefined,
    help: false,
    flash: undefined,
    confirm: undefined,
    prompt: undefined,
    deferred: new Set(),
    typedAt: 0,
    chord: undefined,
    homeDir: '',
    listShown: true,
  };
  let expiry: ReturnType<typeof setTimeout> | undefined;
  // Messages and confirmation windows end by the clock: one timer for the next that ends.
  const scheduleExpiry = () => {
    if (expiry !== undefined) clearTimeout(expiry);
    expiry = undefined;
    const reconnecting =
      state.list?.connection.kind === 'reconnecting' ||
      state.open?.window.state.connection.kind === 'reconnecting';
    const ends = [
      state.flash?.until,
      state.confirm?.until,
      // The "reconnecting in N s" countdown ticks once a second.
      reconnecting ? now() + 1000 : undefined,
    ].filter((t): t is number => t !== undefined && Number.isFinite(t));
    if (ends.length === 0) return;
    const wait = Math.max(0, Math.min(...ends) - now()) + 5;
    expiry = setTimeout(() => {
      expiry = undefined;
      const t = now();
      if (state.flash && state.flash.until < t) state.flash = undefined;
      if (state.confirm && state.confirm.until < t) state.confirm = undefined;
      scheduler.schedule();
    }, wait);
  };
  const scheduler = createRenderScheduler(() => {
    const t = now();
    syncPrompt(state, t);
    writer.draw(
      drawTui(state, {
        cols: screen.width as number,
        rows: screen.height as number,
        hostLabel: options.hostLabel,
        now: t,
        registry,
        cards,
      }),
    );
    scheduleExpiry();
  });
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  let closed = false;
  let editing = false;
  let wasLive = false;

  const onChange = () => {
    // A failure message ends when the connection comes back: it no longer says how things are.
    const live =
      state.list?.connection.kind === 'live' &&
      (state.open === undefined || state.open.window.state.connection.kind === 'live');
    if (live && !wasLive && state.flash?.error) state.flash = undefined;
    wasLive = live;
    scheduler.schedule();
  };

  const open = (sessionId: string) => {
    if (state.open?.id === sessionId) return;
    state.open?.window.close();
    const summary = state.list?.sessions.get(sessionId);
    const facts = { cwd: summary?.cwd ?? '', home: state.homeDir };
    const layout = paneLayout(screen.width as number, screen.height as number);
    state.open = {
      id: sessionId,
      facts,
      renderer: createConversationRenderer({ registry, card: { facts, cards } }),
      view: createConversationView(layout.bodyHeight),
      renderedFrom: undefined,
      window: createSessionWindow({
        client: options.client,
        sessionId,
        onChange,
        ...(options.backoff ? { backoff: options.backoff } : {}),
      }),
    };
    state.details = undefined;
    state.answers = undefined;
    state.prompt = undefined;
    state.inputMode = 'prompt';
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
      onChange();
    },
  });
  options.client.describeHost({}).then(
    (host) => {
      state.homeDir = host.homeDir;
      scheduler.schedule();
    },
    () => {},
  );

  const context: KeyContext = {
    actions,
    open,
    list,
    now,
    flush: () => scheduler.schedule(),
    editDraft: () => void editDraft(),
  };

  async function editDraft(): Promise<void> {
    if (editing || closed) return;
    editing = true;
    program._write(disableBracketedPaste);
    const resume = program.pause();
    options.input.pause();
    const result = await editInEditor(state.composer.text, options.env ?? process.env);
    options.input.resume();
    resume();
    program._write(enableBracketedPaste);
    editing = false;
    writer.invalidate();
    if ('text' in result) state.composer.set(result.text);
    else flash(state, context, result.error, true);
    state.focus = 'input';
    scheduler.schedule();
  }

  function onPaste(text: string, cut: boolean): void {
    if (closed || editing) return;
    if (state.focus !== 'input') state.focus = 'input';
    state.composer.insert(text);
    state.typedAt = now();
    if (cut) flash(state, context, 'the paste was cut at 1,000,000 characters', true);
    scheduler.schedule();
  }

  const onExit = () => options.output.write(disableBracketedPaste);
  process.once('exit', onExit);

  const close = () => {
    if (closed) return;
    closed = true;
    if (expiry !== undefined) clearTimeout(expiry);
    scheduler.dispose();
    list.close();
    state.open?.window.close();
    program._write(disableBracketedPaste);
    process.off('exit', onExit);
    pastes.dispose();
    screen.destroy();
    finish();
  };

  screen.on('keypress', (ch: string | undefined, key: Widgets.Events.IKeyEventArg) => {
    // reblessed reports a CR twice (`enter`, then `return`); act on `return` only.
    if (closed || editing || (key.name === 'enter' && key.sequence === '\r')) return;
    const result = handleKey(state, ch, key, context);
    if (result === 'quit') close();
    else scheduler.schedule();
  });
  screen.on('resize', () => {
    writer.invalidate();
    scheduler.schedule();
  });
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
