import { PassThrough, Writable } from 'node:stream';
import * as unicodeModule from '@xterm/addon-unicode11';
import * as xtermModule from '@xterm/headless';
import type { Terminal } from '@xterm/headless';

// The packages ship CommonJS; a namespace import with a `default` fallback finds the classes.
type XtermModule = typeof xtermModule & { default?: typeof xtermModule };
type UnicodeModule = typeof unicodeModule & { default?: typeof unicodeModule };
const { Terminal: TerminalClass } = (xtermModule as XtermModule).default ?? xtermModule;
const { Unicode11Addon } = (unicodeModule as UnicodeModule).default ?? unicodeModule;

/** A headless terminal that a blessed screen writes to, and the raw bytes it got. */
export interface VirtualTerminal {
  readonly input: PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void };
  readonly output: Writable & { isTTY: boolean; columns: number; rows: number };
  readonly terminal: Terminal;
  /** Every byte written so far, as text. */
  raw: string;
  /** Waits until the emulator has parsed everything written so far. */
  settle(): Promise<void>;
  /** The screen rows as text (trailing blanks trimmed). */
  lines(): string[];
  /** Types keys (escape sequences for special keys). */
  type(keys: string): void;
  resize(cols: number, rows: number): void;
  dispose(): void;
}

/** Creates a virtual terminal of `cols` x `rows` (Unicode 11 widths, like card-models' replay). */
export function createVirtualTerminal(cols: number, rows: number): VirtualTerminal {
  const terminal = new TerminalClass({ cols, rows, allowProposedApi: true, logLevel: 'off' });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  let parsed = Promise.resolve();
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const vt: VirtualTerminal = {
    input,
    output: Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          const text = chunk.toString('utf8');
          vt.raw += text;
          parsed = parsed.then(() => new Promise<void>((resolve) => terminal.write(text, resolve)));
          callback();
        },
      }),
      { isTTY: true, columns: cols, rows },
    ),
    terminal,
    raw: '',
    async settle() {
      await new Promise((resolve) => setImmediate(resolve));
      await parsed;
    },
    lines() {
      const buffer = terminal.buffer.active;
      const out: string[] = [];
      for (let y = 0; y < terminal.rows; y++) {
        // Only the visible columns: after a shrink the buffer keeps cells past the edge.
        const line = buffer.getLine(buffer.viewportY + y);
        out.push(line?.translateToString(true, 0, terminal.cols).trimEnd() ?? '');
      }
      return out;
    },
    type(keys) {
      input.write(keys);
    },
    resize(nextCols, nextRows) {
      terminal.resize(nextCols, nextRows);
      vt.output.columns = nextCols;
      vt.output.rows = nextRows;
      vt.output.emit('resize');
    },
    dispose() {
      terminal.dispose();
    },
  };
  return vt;
}
