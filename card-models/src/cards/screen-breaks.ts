/**
 * Where terminal output would wipe what came before it: a screen clear (ED 1/2/3, also
 * as DECSED, and ED 0 right after a cursor-home), a full reset (`ESC c`), or a switch to
 * or from the alternate screen (DECSET/DECRST 47, 1047, 1049).
 */
export type ScreenBreak = 'clear' | 'reset' | 'alternate-screen' | 'main-screen';

/** A stretch of output between screen breaks, and the break that ended the one before. */
export interface ScreenSegment {
  readonly text: string;
  /** The break right before this segment; undefined for the first one. */
  readonly after: ScreenBreak | undefined;
}

const ESC = 0x1b;
const CSI8 = 0x9b;
const CAN = 0x18;
const SUB = 0x1a;

/** What `ScreenSplitter` hands on: output to replay, or a break that replaced a sequence. */
export type ScreenPiece =
  | { readonly text: string; readonly screenBreak?: undefined }
  | { readonly text?: undefined; readonly screenBreak: ScreenBreak };

const alternateModes = new Set([47, 1047, 1049]);

/** A complete control sequence introducer's parsed shape. */
interface Csi {
  readonly prefix: string;
  readonly params: readonly number[];
  readonly intermediates: string;
  readonly final: string;
  /** False for a malformed sequence, which a terminal ignores. */
  readonly valid: boolean;
}

/** The break a complete CSI makes; `home` says the sequence right before it homed the cursor. */
function csiBreak(csi: Csi, home: boolean): ScreenBreak | undefined {
  if (!csi.valid || csi.intermediates !== '') return undefined;
  if (csi.final === 'J' && (csi.prefix === '' || csi.prefix === '?')) {
    const mode = csi.params[0] ?? 0;
    if (mode === 1 || mode === 2 || mode === 3 || (mode === 0 && home)) return 'clear';
    return undefined;
  }
  if ((csi.final === 'h' || csi.final === 'l') && csi.prefix === '?') {
    if (!csi.params.some((mode) => alternateModes.has(mode))) return undefined;
    return csi.final === 'h' ? 'alternate-screen' : 'main-screen';
  }
  return undefined;
}

/** True for a cursor position (CUP/HVP) to row 1, column 1. */
function isHome(csi: Csi): boolean {
  return (
    csi.valid &&
    csi.prefix === '' &&
    csi.intermediates === '' &&
    (csi.final === 'H' || csi.final === 'f') &&
    csi.params.every((p) => p <= 1)
  );
}

type State = 'ground' | 'escape' | 'csi';

/**
 * Finds screen breaks in output that arrives in pieces (live output), dropping the
 * breaking sequences: one linear pass in total however the output is cut, and the same
 * pieces as one whole `splitScreens` would give. A CSI is read as a VT500 parser does:
 * C0 controls inside it run and it continues, CAN/SUB and a non-ASCII character abort
 * it, ESC (or a C1 CSI) aborts it and starts anew. A sequence still open at the end of a push waits (at most its own length) for
 * the next one; `end` hands it on as output.
 */
export class ScreenSplitter {
  private state: State = 'ground';
  /** Text of the open sequence from earlier pushes, not handed on yet. */
  private held: string[] = [];
  /** Absolute offset of the open sequence's first character. */
  private seqStart = 0;
  /** Absolute offset right after the last complete CSI that homed the cursor. */
  private homeEnd = -1;
  /** Absolute offset of the current push's first character. */
  private offset = 0;
  private prefix = '';
  private raw = '';
  private intermediates = '';
  private valid = true;

  /** Reads `text`, handing on output and breaks in order. */
  push(text: string, out: (piece: ScreenPiece) => void): void {
    // `from`: the first index of `text` not handed on yet; `open`: the open sequence's
    // index in `text`, or -1 when it began in an earlier push (its text is in `held`).
    let from = 0;
    let open = this.state === 'ground' ? 0 : -1;
    const resolveAsText = (): void => {
      if (open < 0) {
        for (const part of this.held) out({ text: part });
        this.held = [];
      }
      this.state = 'ground';
    };
    const breakAt = (end: number, kind: ScreenBreak): void => {
      if (open > from) out({ text: text.slice(from, open) });
      this.held = [];
      out({ screenBreak: kind });
      from = end;
      this.state = 'ground';
    };
    const begin = (i: number, state: State): void => {
      open = i;
      this.seqStart = this.offset + i;
      this.state = state;
      this.prefix = this.raw = this.intermediates = '';
      this.valid = true;
    };
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.state === 'escape') {
        if (code === 0x63 /* c */) {
          breakAt(i + 1, 'reset');
          continue;
        }
        if (code === 0x5b /* [ */) {
          this.state = 'csi';
          continue;
        }
        // A lone ESC is output; the character after it is read afresh.
        resolveAsText();
      } else if (this.state === 'csi') {
        if (code === CAN || code === SUB || code === ESC) {
          resolveAsText();
          if (code !== ESC) continue;
        } else if (code === CSI8 || code >= 0xa0) {
          // As in xterm: a non-ASCII character aborts the sequence, another CSI starts anew.
          resolveAsText();
        } else {
          const csi = this.csiChar(code, text[i] as string);
          if (csi === undefined) continue;
          const kind = csiBreak(csi, this.homeEnd === this.seqStart);
          this.homeEnd = isHome(csi) ? this.offset + i + 1 : -1;
          if (kind !== undefined) breakAt(i + 1, kind);
          else resolveAsText();
          continue;
        }
      }
      if (code === ESC) begin(i, 'escape');
      else if (code === CSI8) begin(i, 'csi');
    }
    if (this.state === 'ground') {
      if (from < text.length) out({ text: text.slice(from) });
    } else if (open >= 0) {
      if (open > from) out({ text: text.slice(from, open) });
      this.held = [text.slice(open)];
    } else {
      this.held.push(text.slice(from));
    }
    this.offset += text.length;
  }

  /** Hands on a sequence the output left open: it is output like any other text. */
  end(out: (piece: ScreenPiece) => void): void {
    for (const part of this.held) out({ text: part });
    this.held = [];
    this.state = 'ground';
  }

  /** One character of an open CSI; the parsed sequence once `code` is its final byte. */
  private csiChar(code: number, ch: string): Csi | undefined {
    if (code < 0x20 || code === 0x7f) return undefined;
    if (code >= 0x40 && code <= 0x7e) {
      const { prefix, raw, intermediates, valid } = this;
      const params = raw === '' ? [] : raw.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
      return { prefix, params, intermediates, final: ch, valid };
    }
    if (code >= 0x20 && code <= 0x2f) this.intermediates += ch;
    else if (this.intermediates !== '') this.valid = false;
    else if (code >= 0x3c && code <= 0x3f) {
      if (this.raw !== '' || this.prefix !== '') this.valid = false;
      this.prefix = ch;
    } else if (code <= 0x3b) this.raw += ch;
    else this.valid = false;
    return undefined;
  }
}

/**
 * Splits output at every screen break, dropping the breaking sequence itself: each
 * segment can then be replayed on a fresh screen, so nothing a program printed before a
 * clear, reset or screen switch is lost from the card. One linear pass; output without
 * a break is one segment.
 */
export function splitScreens(body: string): ScreenSegment[] {
  const segments: ScreenSegment[] = [];
  let parts: string[] = [];
  let after: ScreenBreak | undefined;
  const take = (piece: ScreenPiece): void => {
    if (piece.screenBreak === undefined) {
      parts.push(piece.text);
      return;
    }
    segments.push({ text: parts.join(''), after });
    parts = [];
    after = piece.screenBreak;
  };
  const splitter = new ScreenSplitter();
  splitter.push(body, take);
  splitter.end(take);
  segments.push({ text: parts.join(''), after });
  return segments;
}
