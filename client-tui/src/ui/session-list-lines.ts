import type { SessionRow } from '@dsh/client-live';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { lineWidth, truncateLine } from '../text/text-width.js';
import { relativeTime, timestampMs } from './relative-time.js';

/** What the list draws besides its rows. */
export interface SessionListOptions {
  readonly width: number;
  readonly cursor: number;
  readonly openId: string | undefined;
  readonly focused: boolean;
  /** Sessions that wait for the person (an approval or question their running turn asks). */
  readonly waiting: ReadonlySet<string>;
  /** The clock, for how long ago each session changed. */
  readonly now: number;
  /** The title a session shows; its summary's title, else its id, by default. */
  readonly titleOf?: (summary: SessionRow['summary']) => string;
}

/** The marker before a session: waiting for you, running, unreadable, or none. */
function marker(summary: SessionRow['summary'], waiting: boolean) {
  if (waiting) return seg('⚑ ', theme.waiting);
  if (summary.running) return seg('● ', theme.running);
  if (summary.error !== '') return seg('! ', theme.error);
  if (summary.archived) return seg('◌ ', theme.dim);
  return seg('  ');
}

/**
 * The session list as lines: children indented under parents (lineage), a marker (`⚑`
 * waiting for you: an approval or question pending, by the host's count or the open
 * session's own, `●` running, `!` unreadable, `◌` archived with a dim title), the title
 * (or id), how long ago it changed on the right, the open session in bold and the cursor
 * row inverted.
 */
export function sessionListLines(
  rows: readonly SessionRow[],
  options: SessionListOptions,
): StyledLine[] {
  return rows.map((row, i) => {
    const summary = row.summary;
    const title = oneLine(
      options.titleOf?.(summary) ?? (summary.title !== '' ? summary.title : summary.id),
    );
    const indent = '  '.repeat(Math.min(row.depth, 4)) + (row.depth > 0 ? '└ ' : '');
    const open = summary.id === options.openId;
    const updated = timestampMs(summary.updatedAt);
    const age = updated === undefined ? '' : ` ${relativeTime(updated, options.now)}`;
    const left = truncateLine(
      [
        marker(summary, options.waiting.has(summary.id) || summary.pending > 0),
        seg(indent, theme.dim),
        seg(title, open ? theme.bold : summary.archived ? theme.dim : undefined),
      ],
      Math.max(4, options.width - age.length),
    );
    const gap = Math.max(0, options.width - lineWidth(left) - age.length);
    const line: StyledLine =
      age === '' ? left : [...left, seg(' '.repeat(gap)), seg(age, theme.dim)];
    if (i !== options.cursor) return line;
    const cursorStyle = options.focused ? { inverse: true } : { underline: true };
    const padded = [...line, seg(' '.repeat(Math.max(0, options.width - lineWidth(line))))];
    return padded.map((segment) => seg(segment.text, { ...segment.style, ...cursorStyle }));
  });
}
