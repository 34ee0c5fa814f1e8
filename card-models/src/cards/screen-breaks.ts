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

/** A control sequence introducer's parsed shape, or undefined while it is not complete. */
interface Csi {
  /** Index one past the final byte. */
  readonly end: number;
  readonly prefix: string;
  readonly params: readonly number[];
  readonly intermediates: string;
  readonly final: string;
  /** False for a malformed sequence, which a terminal ignores. */
  readonly valid: boolean;
}

/**
 * Reads a CSI whose parameters start at `start`, as a VT500 parser does: C0 controls
 * inside it run and it continues, CAN/SUB abort it, ESC aborts it and starts anew.
 * Returns undefined when it is aborted or unterminated (nothing to act on).
 */
function readCsi(body: string, start: number): Csi | undefined {
  let prefix = '';
  let raw = '';
  let intermediates = '';
  let valid = true;
  for (let i = start; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code === 0x18 || code === 0x1a || code === ESC) return undefined;
    if (code < 0x20 || code === 0x7f) continue;
    const ch = body[i] as string;
    if (code >= 0x40 && code <= 0x7e) {
      const params = raw === '' ? [] : raw.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
      return { end: i + 1, prefix, params, intermediates, final: ch, valid };
    }
    if (code >= 0x20 && code <= 0x2f) intermediates += ch;
    else if (intermediates !== '') valid = false;
    else if (code >= 0x3c && code <= 0x3f) {
      if (raw !== '' || prefix !== '') valid = false;
      prefix = ch;
    } else if (code <= 0x3b) raw += ch;
    else valid = false;
  }
  return undefined;
}

const alternateModes = new Set([47, 1047, 1049]);

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

/**
 * Splits output at every screen break, dropping the breaking sequence itself: each
 * segment can then be replayed on a fresh screen, so nothing a program printed before a
 * clear, reset or screen switch is lost from the card. One linear pass; output without
 * a break is one segment.
 */
export function splitScreens(body: string): ScreenSegment[] {
  const segments: ScreenSegment[] = [];
  let from = 0;
  let after: ScreenBreak | undefined;
  let homeEnd = -1;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code !== ESC && code !== CSI8) continue;
    if (code === ESC && body[i + 1] === 'c') {
      segments.push({ text: body.slice(from, i), after });
      after = 'reset';
      from = i + 2;
      i += 1;
      continue;
    }
    const paramsAt = code === CSI8 ? i + 1 : body[i + 1] === '[' ? i + 2 : -1;
    if (paramsAt < 0) continue;
    const csi = readCsi(body, paramsAt);
    if (csi === undefined) continue;
    const kind = csiBreak(csi, homeEnd === i);
    if (kind !== undefined) {
      segments.push({ text: body.slice(from, i), after });
      after = kind;
      from = csi.end;
    }
    homeEnd = isHome(csi) ? csi.end : -1;
    i = csi.end - 1;
  }
  segments.push({ text: body.slice(from), after });
  return segments;
}
