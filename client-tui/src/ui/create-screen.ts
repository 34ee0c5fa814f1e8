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
 * screen, key parsing and resize events. It draws nothing itself (the client writes its
 * own frames, see `createTerminalWriter`); terminfo `xterm` because the blessed family
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
  if (options.mouse) screen.enableMouse();
  return screen;
}
