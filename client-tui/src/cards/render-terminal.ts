import {
  defaultTerminalCols,
  liveOutputNote,
  terminalCardPreview,
  terminalLines,
  type TerminalLine,
} from '@dsh/card-models';
import { seg, type Segment, type StyledLine } from '../text/styled-line.js';
import { sanitizeText } from '../text/sanitize-text.js';
import type { BodyOf, CardContext, TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { moreLine, oneLine, previewRowsPerLine, wrapAll } from './text-lines.js';
import { theme } from './theme.js';

function outputLine(line: TerminalLine): StyledLine {
  if (line.spans.length === 0) return [seg(sanitizeText(line.text))];
  const out: Segment[] = [];
  let at = 0;
  for (const span of line.spans) {
    if (span.start > at) out.push(seg(sanitizeText(line.text.slice(at, span.start))));
    const { start: _start, end: _end, ...style } = span;
    out.push(seg(sanitizeText(line.text.slice(span.start, span.end)), style));
    at = span.end;
  }
  if (at < line.text.length) out.push(seg(sanitizeText(line.text.slice(at))));
  return out;
}

function prompt(card: BodyOf<'terminal'>): StyledLine {
  const symbol = card.tool === 'pwsh' ? 'PS>' : card.tool === 'terminal_send' ? '>' : '$';
  const where = card.session !== undefined ? `[${oneLine(card.session)}] ` : '';
  const cwd = card.displayCwd !== undefined ? `${oneLine(card.displayCwd)} ` : '';
  const command =
    card.tool === 'terminal_send' && card.command === '' ? '(empty input)' : card.command;
  const commandLines = sanitizeText(command).replace(/\n+$/, '').split('\n');
  return [
    seg(where + cwd, theme.dim),
    seg(`${symbol} `, theme.ok),
    seg(commandLines[0] ?? '', theme.bold),
    ...(commandLines.length > 1 ? [seg(` (+${commandLines.length - 1} lines)`, theme.dim)] : []),
  ];
}

function endingPill(card: BodyOf<'terminal'>): StyledLine | undefined {
  if (card.state === 'running') return [seg('running…', theme.running)];
  if (card.background) return [seg('started in the background', theme.dim)];
  const ending = card.ending;
  if (ending === undefined) return undefined;
  if (ending.kind === 'signal') return [seg(`killed by ${oneLine(ending.signal)}`, theme.error)];
  return [seg(`exit ${ending.code}`, ending.code === 0 ? theme.ok : theme.error)];
}

/**
 * Terminal card: the prompt, the output replayed by card-models (colours kept as spans,
 * cursor movement already applied) as a head/tail preview or in full, and the exit pill.
 * While the command runs, the output is its live output: the last lines in the
 * conversation, all of it in details.
 */
export const renderTerminal: TuiCardRenderer = (block, card, context: CardContext) => {
  const body = card.body;
  if (body.kind !== 'terminal') return renderGeneric(block, card, context);
  const lines: StyledLine[] = [prompt(body)];
  if (context.mode === 'details' && body.command.includes('\n')) {
    lines.push(
      ...sanitizeText(body.command)
        .split('\n')
        .slice(1)
        .map((l) => [seg(`  ${l}`)]),
    );
  }
  const geometry = { cols: defaultTerminalCols };
  const gutter = seg('│ ', theme.dim);
  if (context.mode === 'details') {
    for (const line of terminalLines(body, geometry)) lines.push([gutter, ...outputLine(line)]);
  } else {
    const preview = terminalCardPreview(body, geometry);
    for (const line of preview.head) lines.push([gutter, ...outputLine(line)]);
    if (preview.hidden > 0) lines.push([gutter, moreLine(preview.hidden)]);
    for (const line of preview.tail) lines.push([gutter, ...outputLine(line)]);
  }
  const note = liveOutputNote(body);
  if (note !== undefined) lines.push([gutter, seg(note, theme.dim)]);
  const pill = endingPill(body);
  if (pill) lines.push(pill);
  const rowsPerLine = context.mode === 'details' ? undefined : previewRowsPerLine;
  return wrapAll(lines, context.width, 2, rowsPerLine);
};
