import type { Readable, Writable } from 'node:stream';
import blessed, { type Widgets } from 'reblessed';

/** Options of `createTuiScreen`. */
export interface TuiScreenOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Mouse reporting (off by default, so the terminal's own text selection works). */
  readonly mouse: boolean;
}

/**
 * A reblessed screen that holds the terminal for the client: raw mode, the alternate
 * screen, key parsing and resize events. It draws nothing itself and clears only on entering (the
 * client writes its own frames, see `createTerminalWriter`); terminfo `xterm` because the blessed family
 * cannot parse Debian's extended `xterm-256color` entry.
 */
export function createTuiScreen(options: TuiScreenOptions): Widgets.Screen {
  const screen = blessed.screen({
    input: options.input,
    output: options.output,
    terminal: 'xterm',
    fullUnicode: true,
    forceUnicode: true,
    smartCSR: false,
    autoPadding: false,
    warnings: false,
    title: undefined,
  } as unknown as Widgets.IScreenOptions);
  // reblessed clears the terminal on every resize (to redraw its own widgets); the client
  // repaints every row itself, so that clear would only flash a blank screen in between.
  // The clear on entering (in the constructor) stays: the client starts on a blank screen.
  const program = (screen as unknown as { program: { x: number; y: number; clear(): void } })
    .program;
  program.clear = () => {
    program.x = 0;
    program.y = 0;
  };
  if (options.mouse) screen.enableMouse();
  return screen;
}

/** What the client does with the screen's events. */
export interface ScreenListeners {
  key(ch: string | undefined, key: Widgets.Events.IKeyEventArg): void;
  resize(): void;
  /** The mouse wheel (only with mouse reporting on): rows to scroll, negative upwards. */
  wheel(rows: number): void;
}

/**
 * Subscribes the client to keys, resizes and, with `mouse`, the wheel of `screen` (a mouse
 * listener alone makes reblessed turn mouse reporting on, which breaks text selection).
 */
export function listenToScreen(
  screen: Widgets.Screen,
  listeners: ScreenListeners,
  mouse: boolean,
): void {
  screen.on('keypress', (ch: string | undefined, key: Widgets.Events.IKeyEventArg) => {
    // reblessed reports a CR twice (`enter`, then `return`); the client acts on `return`.
    if (key.name === 'enter' && key.sequence === '\r') return;
    listeners.key(ch, key);
  });
  screen.on('resize', () => listeners.resize());
  if (!mouse) return;
  screen.on('wheelup', () => listeners.wheel(-3));
  screen.on('wheeldown', () => listeners.wheel(3));
}
