/** A stretch of raw output: plain text, or one control character by its name. */
export interface ControlRun {
  /** The text itself, or the control's name (`ESC`, `CR`, `CSI`, `RLO`...) when `control`. */
  readonly text: string;
  readonly control: boolean;
}

const c0 = [
  'NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'BEL', 'BS', 'HT', 'LF', 'VT', 'FF', 'CR',
  'SO', 'SI', 'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC',
  'FS', 'GS', 'RS', 'US',
]; // prettier-ignore
const c1 = [
  'PAD', 'HOP', 'BPH', 'NBH', 'IND', 'NEL', 'SSA', 'ESA', 'HTS', 'HTJ', 'VTS', 'PLD', 'PLU',
  'RI', 'SS2', 'SS3', 'DCS', 'PU1', 'PU2', 'STS', 'CCH', 'MW', 'SPA', 'EPA', 'SOS', 'SGCI',
  'SCI', 'CSI', 'ST', 'OSC', 'PM', 'APC',
]; // prettier-ignore
const bidi: Readonly<Record<number, string>> = {
  0x061c: 'ALM',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
};
/** C0 but tab and newline, DEL, C1, and the controls that reorder text on screen. */
const controls =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function controlName(code: number): string {
  if (code < 0x20) return c0[code] ?? 'C0';
  if (code === 0x7f) return 'DEL';
  if (code <= 0x9f) return c1[code - 0x80] ?? 'C1';
  return bidi[code] ?? `U+${code.toString(16).toUpperCase()}`;
}

/**
 * Raw tool output split into plain text and named control characters (C0 but tab and
 * newline, DEL, C1, bidirectional controls), so a details view can show exactly what the
 * model saw with every escape visible: a clear reads `ESC [2J`. Linear, never throws.
 */
export function controlRuns(text: string): ControlRun[] {
  const runs: ControlRun[] = [];
  let from = 0;
  for (const match of text.matchAll(controls)) {
    const at = match.index;
    if (at > from) runs.push({ text: text.slice(from, at), control: false });
    runs.push({ text: controlName(text.charCodeAt(at)), control: true });
    from = at + 1;
  }
  if (from < text.length) runs.push({ text: text.slice(from), control: false });
  return runs;
}

/**
 * The same as one string for plain-text views: C0 controls as their Unicode pictures (ESC
 * as `␛`, so a clear reads `␛[2J`; CR as `␍`), DEL as `␡`, C1 and bidirectional controls
 * by name in angle brackets (`⟨CSI⟩`, `⟨RLO⟩`). Newlines and tabs stay.
 */
export function visibleControls(text: string): string {
  return text.replace(controls, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '␡';
    return `⟨${controlName(code)}⟩`;
  });
}
