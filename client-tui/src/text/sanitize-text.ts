/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
// Escape sequences: CSI (7-bit and 8-bit), OSC / DCS / SOS / PM / APC strings up to their
// terminator (BEL or ST) or the end of the text, and two-byte / nF escapes.
const escapeSequence = new RegExp(
  [
    '(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    '(?:\\x1b[\\]PX^_]|[\\x90\\x98\\x9d\\x9e\\x9f])[\\s\\S]*?(?:\\x07|\\x1b\\\\|\\x9c|$)',
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
  ].join('|'),
  'g',
);
// Remaining C0 controls except tab and newline, DEL, C1 controls, and bidi overrides that
// would reorder what the person sees.
const controlCharacters = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Makes untrusted text safe to draw: removes every escape sequence and control character
 * (so nothing can move the cursor, retitle the window, write the clipboard or open a
 * link), turns CR LF and lone CR into newlines, and expands tabs to `tabSize` stops.
 */
export function sanitizeText(text: string, tabSize = 4): string {
  const cleaned = text
    .replace(/\r\n?/g, '\n')
    .replace(escapeSequence, '')
    .replace(controlCharacters, '');
  if (!cleaned.includes('\t')) return cleaned;
  return cleaned
    .split('\n')
    .map((line) => expandTabs(line, tabSize))
    .join('\n');
}

function expandTabs(line: string, tabSize: number): string {
  let out = '';
  for (const ch of line) {
    out += ch === '\t' ? ' '.repeat(tabSize - (out.length % tabSize)) : ch;
  }
  return out;
}
