/** Bidirectional controls that reorder the text around them on screen. */
const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function picture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code === 0x7f) return '␡';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  return `⟨${code.toString(16).toUpperCase()}⟩`;
}

/**
 * Raw tool output with every control character made visible, for a details view that
 * shows exactly what the model saw: C0 controls as their Unicode pictures (ESC as `␛`,
 * so a clear reads `␛[2J`; CR as `␍`), DEL as `␡`, C1 controls and bidirectional
 * controls as `⟨9B⟩` / `⟨U+202E⟩`. Newlines and tabs stay. Linear, never throws.
 */
export function visibleControls(text: string): string {
  return text
    .replace(controls, picture)
    .replace(bidi, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
