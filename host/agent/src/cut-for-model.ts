import { estimateTokens } from './token-estimate.js';

/**
 * `text` cut to at most `maxTokens` estimated tokens for the model: its head (two thirds)
 * and tail (one third) around a notice that says how much was left out and, in `whole`,
 * where the whole text is. Text that fits is returned unchanged.
 */
export function cutForModel(text: string, maxTokens: number, whole: string): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const notice = (omitted: number): string =>
    `\n\n[... ${omitted} characters cut here to fit the model's context window; ${whole}]\n\n`;
  // Characters to keep; three bytes per token, less the notice, then shrunk until it fits.
  let keep = Math.max(0, maxTokens * 3 - notice(text.length).length);
  for (;;) {
    const head = wholeChars(text.slice(0, Math.ceil((keep * 2) / 3)), 'head');
    const tail = wholeChars(text.slice(text.length - Math.floor(keep / 3)), 'tail');
    const cut = head + notice(text.length - head.length - tail.length) + tail;
    const tokens = estimateTokens(cut);
    if (tokens <= maxTokens || keep === 0) return cut;
    keep = Math.floor((keep * maxTokens * 0.95) / tokens);
  }
}

/** Drops half a surrogate pair left at the cut edge, so the text stays valid UTF-16. */
function wholeChars(text: string, side: 'head' | 'tail'): string {
  if (text === '') return text;
  if (side === 'head') {
    const last = text.charCodeAt(text.length - 1);
    return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
  }
  const first = text.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
}
