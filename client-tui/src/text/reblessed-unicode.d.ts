/** The width tables reblessed draws with (CommonJS module without its own types). */
declare module 'reblessed/dist/lib/unicode.js' {
  /** Cells the code point at `index` of `text` takes (0 for combining marks, 2 for wide). */
  export function charWidth(text: string, index?: number): number;
  /** Cells `text` takes. */
  export function strWidth(text: string): number;
}
