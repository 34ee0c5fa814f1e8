/* eslint-disable no-control-regex -- this file matches terminal escape sequences on purpose */
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Turns bracketed paste on in the terminal (pastes arrive between ESC[200~ and ESC[201~). */
export const enableBracketedPaste = '\x1b[?2004h';
/** Turns bracketed paste off again (on exit, and before an editor runs). */
export const disableBracketedPaste = '\x1b[?2004l';

const start = '\x1b[200~';
const end = '\x1b[201~';
/** A paste larger than this is cut (and says so): nothing pasted can exhaust the client. */
export const maxPasteChars = 1_000_000;
/** How long a lone trailing ESC (maybe the start of ESC[200~) waits for the next bytes. */
const escapeWaitMs = 20;

/** The keyboard input with pastes taken out, as a TTY-like stream blessed can read. */
export type KeyInput = PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void };

/** The length of the longest suffix of `text` that starts `marker`. */
function partialMarker(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}

/**
 * Reads `source` (the terminal), hands each bracketed paste to `onPaste` whole (however the
 * bytes were split) and passes every other byte on to the returned stream, which stands in
 * for the terminal as blessed's input (raw mode is forwarded to `source`).
 */
export function filterPastes(
  source: Readable & { setRawMode?: (mode: boolean) => unknown },
  onPaste: (text: string, cut: boolean) => void,
): { input: KeyInput; dispose(): void } {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (mode: boolean) => {
      source.setRawMode?.(mode);
    },
  });
  const decoder = new StringDecoder('utf8');
  let pasting = false;
  let paste = '';
  let cut = false;
  let carry = '';
  let timer: ReturnType<typeof setTimeout> | undefined;

  const keep = (text: string) => {
    if (paste.length + text.length > maxPasteChars) {
      paste += text.slice(0, Math.max(0, maxPasteChars - paste.length));
      cut = true;
    } else paste += text;
  };
  const feed = (chunk: string) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    let text = carry + chunk;
    const continues =
      start.startsWith(text.slice(0, start.length)) ||
      text.startsWith(start) ||
      /^\x1b[\r\n]/.test(text);
    if (carry !== '' && !pasting && !continues) {
      // The held bytes were no paste start (a lone Esc): they go on as their own key.
      input.write(carry);
      text = chunk;
    }
    carry = '';
    let out = '';
    while (text !== '') {
      const marker = pasting ? end : start;
      const at = text.indexOf(marker);
      if (at < 0) {
        const partial = partialMarker(text, marker);
        const whole = text.slice(0, text.length - partial);
        if (pasting) keep(whole);
        else out += whole;
        carry = text.slice(text.length - partial);
        break;
      }
      if (pasting) {
        keep(text.slice(0, at));
        onPaste(paste, cut);
        paste = '';
        cut = false;
      } else out += text.slice(0, at);
      pasting = !pasting;
      text = text.slice(at + marker.length);
    }
    // Alt+Enter (ESC CR) is the newline key, as Ctrl+J (LF) is: blessed would split it.
    if (out !== '') input.write(out.replace(/\x1b[\r\n]/g, '\n'));
    if (carry !== '' && !pasting) {
      timer = setTimeout(() => {
        timer = undefined;
        const rest = carry;
        carry = '';
        input.write(rest);
      }, escapeWaitMs);
    }
  };
  const onData = (chunk: Buffer | string) =>
    feed(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  source.on('data', onData);
  return {
    input,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      source.off('data', onData);
    },
  };
}
