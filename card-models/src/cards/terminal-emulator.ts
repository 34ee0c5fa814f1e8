import type { Terminal } from '@xterm/headless';
import { loadXterm, xtermClasses } from '#xterm';
import type { TerminalLine, TerminalRenderOptions } from './terminal-output.js';

/** Default replay width: wide enough that ordinary output does not wrap. */
export const defaultTerminalCols = 160;
const defaultRows = 24;

/**
 * Whether replays run through the emulator: always in Node; in a browser build once
 * `loadTerminalEmulator` has resolved (before that, replays are `plainLines`).
 */
export function terminalEmulatorLoaded(): boolean {
  return xtermClasses()?.Terminal !== undefined;
}

/**
 * Loads the emulator where it is a lazy chunk (browser builds); resolves at once where it
 * is imported with card-models. Rejects when the chunk cannot be fetched (call again to retry).
 */
export function loadTerminalEmulator(): Promise<void> {
  return loadXterm();
}

/** The replay geometry of `options`, clamped to what a card can hold. */
export function replayGeometry(options: TerminalRenderOptions): { cols: number; rows: number } {
  const cols = Math.max(2, Math.min(1000, Math.floor(options.cols ?? defaultTerminalCols) || 2));
  const rows = Math.max(1, Math.min(500, Math.floor(options.rows ?? defaultRows) || 1));
  return { cols, rows };
}

/**
 * A headless xterm.js emulator with Unicode 11 widths and LF as CR LF (as a pty's output
 * processing does), or undefined when the module is not loaded or cannot load (replays
 * fall back to `plainLines`).
 */
export function createTerminal(geometry: {
  cols: number;
  rows: number;
  scrollback: number;
}): Terminal | undefined {
  const TerminalClass = xtermClasses()?.Terminal;
  if (!TerminalClass) return undefined;
  const terminal = new TerminalClass({
    ...geometry,
    convertEol: true,
    allowProposedApi: true,
    logLevel: 'off',
  });
  const Unicode11Addon = xtermClasses()?.Unicode11Addon;
  if (Unicode11Addon) {
    terminal.loadAddon(new Unicode11Addon());
    terminal.unicode.activeVersion = '11';
  }
  return terminal;
}

/** The internal synchronous write of xterm 6 (`CoreTerminal.writeSync`); see README.cards.md. */
type SyncCore = { writeSync?: (data: string) => void };

/** Writes `data` and parses it before returning; false when this xterm has no such write. */
export function writeSync(terminal: Terminal, data: string): boolean {
  const core = (terminal as unknown as { _core?: SyncCore })._core;
  if (typeof core?.writeSync !== 'function') return false;
  core.writeSync(data);
  return true;
}

/**
 * Clears the screen, scrollback and modes and returns the parser to its ground state.
 * `Terminal.reset` alone leaves the parser inside a sequence the last output left open
 * (an unterminated OSC would swallow everything written next); CAN aborts any sequence
 * first, as it does on a VT500.
 */
export function resetTerminal(terminal: Terminal): void {
  writeSync(terminal, '\x18');
  terminal.reset();
}

/** Without the emulator: escape sequences dropped, CR keeps the text after the last one. */
export function plainLines(body: string): TerminalLine[] {
  const stripped = body.replace(
    // eslint-disable-next-line no-control-regex
    /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)/gs,
    '',
  );
  return stripped
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => ({
      text:
        line
          .split('\r')
          .filter((part) => part !== '')
          .pop() ?? '',
      spans: [],
    }));
}
