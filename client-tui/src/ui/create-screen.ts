import type { Readable, Writable } from 'node:stream';
import blessed, { type Widgets } from 'reblessed';
import type { ColorDepth } from '../text/color-depth.js';

/** Options of `createTuiScreen`. */
export interface TuiScreenOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly colorDepth: ColorDepth;
  /** Mouse reporting (off by default, so the terminal's own text selection works). */
  readonly mouse: boolean;
}

/**
 * A reblessed screen for the client: full Unicode (wide characters keep their width),
 * terminfo `xterm` (Debian's extended `xterm-256color` entry cannot be parsed by the
 * blessed family), colours reduced to `colorDepth`, UTF-8 line characters, and no mouse
 * unless asked.
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
  // reblessed reduces colours to what terminfo says; `xterm` says 8, the terminal may do more.
  const tput = (screen as unknown as { tput: { colors: number; brokenACS: boolean } }).tput;
  tput.colors = options.colorDepth;
  // Draw line characters as UTF-8, never through the VT100 alternate character set: tmux,
  // some SSH clients and capture tools show ACS as letters (lqqk).
  tput.brokenACS = true;
  if (options.mouse) screen.enableMouse();
  return screen;
}
