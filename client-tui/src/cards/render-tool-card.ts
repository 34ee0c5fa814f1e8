import type { Card, ToolCallBlock } from '@dsh/card-models';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import type { CardContext, TuiRendererRegistry } from './card-renderer.js';
import { oneLine, textLines } from './text-lines.js';
import { theme } from './theme.js';

const stateGlyph = {
  running: seg('◌ ', theme.running),
  ok: seg('✓ ', theme.ok),
  error: seg('✗ ', theme.error),
  stopped: seg('■ ', theme.stopped),
  declined: seg('■ ', theme.stopped),
} as const;

/**
 * The one-line head of a card: its status (`card.status`, so a command that exited
 * non-zero reads failed as in the web client), title and summary, cut to the width.
 */
export function cardHead(card: Card, width: number): StyledLine {
  const row = card.row;
  const summary = row.summary !== '' ? oneLine(row.summary) : (row.displayPath ?? '');
  const line: StyledLine = [
    stateGlyph[card.status.state],
    seg(oneLine(row.title), theme.title),
    ...(summary !== '' ? [seg(` ${summary}`, theme.dim)] : []),
    ...(row.state === 'stopped' ? [seg(' interrupted', theme.stopped)] : []),
  ];
  return truncateLine(line, width);
}

/**
 * Draws one tool call: the head row, the body from the renderer registered for its tool
 * (Generic for unknown tools and generic bodies; in details also the full arguments), then
 * its sub-calls nested two cells in, drawn the same way. A renderer that throws is
 * isolated: its card says so.
 */
export function renderToolCard(
  block: ToolCallBlock,
  registry: TuiRendererRegistry,
  context: CardContext,
): StyledLine[] {
  const card = context.cards.card(block, context.facts);
  return drawCard(block, card, registry, context);
}

function drawCard(
  block: ToolCallBlock,
  card: Card,
  registry: TuiRendererRegistry,
  context: CardContext,
): StyledLine[] {
  const width = Math.max(10, context.width);
  const lines: StyledLine[] = [cardHead(card, width)];
  const inner = { ...context, width: width - 2 };
  let body: StyledLine[];
  try {
    const renderer = registry.resolve(card.body.kind === 'generic' ? '' : block.name);
    body = renderer(block, card, inner);
  } catch (error) {
    body = textLines(`this card failed to render: ${(error as Error).message}`, inner.width, {
      style: theme.error,
    });
  }
  if (context.mode === 'details' && card.body.kind !== 'generic') {
    // The full arguments, whatever the card draws from them (the Generic body has its own).
    body.push([seg('Arguments', theme.bold)]);
    body.push(
      ...textLines(card.row.argsText === '' ? '(none)' : card.row.argsText, inner.width, {
        indent: 2,
      }),
    );
  }
  for (const line of body) lines.push([seg('  '), ...line]);
  block.subCalls.forEach((child, i) => {
    const childCard = card.subCalls[i] ?? context.cards.card(child, context.facts);
    for (const line of drawCard(child, childCard, registry, inner))
      lines.push([seg('  '), ...line]);
  });
  return lines;
}
