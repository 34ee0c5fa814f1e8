import type { TerminalColor } from '@dsh/card-models';

/** How a run of text looks: colours (palette index or `#rrggbb`) and attributes. */
export interface TextStyle {
  readonly fg?: TerminalColor;
  readonly bg?: TerminalColor;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly inverse?: boolean;
  readonly strike?: boolean;
}

/** A run of sanitized text (no control characters) with one style. */
export interface Segment {
  readonly text: string;
  readonly style?: TextStyle;
}

/** One screen row of the client's own drawing: styled runs, never raw escape sequences. */
export type StyledLine = readonly Segment[];

/** A segment with `style`, for building lines tersely. */
export function seg(text: string, style?: TextStyle): Segment {
  return style === undefined ? { text } : { text, style };
}

/** The text of a line without its styles (snapshots, searching). */
export function plainText(line: StyledLine): string {
  return line.map((segment) => segment.text).join('');
}
