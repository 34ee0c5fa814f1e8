import {
  contextView,
  flattenContent,
  type AssistantBlock,
  type ConversationNode,
  type PartialMessage,
  type SessionLink,
} from '@dsh/card-models';
import { TurnEndReason } from '@dsh/gen/events';
import { renderToolCard } from '../cards/render-tool-card.js';
import type { CardContext, TuiRendererRegistry } from '../cards/card-renderer.js';
import { oneLine, textLines } from '../cards/text-lines.js';
import { theme } from '../cards/theme.js';
import { seg, type StyledLine, type TextStyle } from '../text/styled-line.js';
import { lineWidth, truncateLine } from '../text/text-width.js';
import { markdownLines, type MarkdownStream } from '../markdown/markdown-lines.js';
import type { ConversationItem } from './conversation-item.js';
import { compactionLines } from './render-compaction.js';

/** What drawing a node needs besides the node: the registry and the card context. */
export interface NodeContext {
  readonly registry: TuiRendererRegistry;
  readonly card: Omit<CardContext, 'width' | 'mode'>;
  readonly width: number;
  /**
   * The stream renderer of a streamed text block (by item key), so each chunk costs what
   * the new text costs; without it a streamed block is drawn whole.
   */
  readonly markdownStream?: (key: string) => MarkdownStream;
}

/** Lines of a message: a marker on the first row, the text indented under it. */
function message(text: string, width: number, marker: string, style: TextStyle, body?: TextStyle) {
  const lines = textLines(text === '' ? ' ' : text, width, {
    indent: 2,
    ...(body ? { style: body } : {}),
  });
  const first = lines[0] ?? [];
  lines[0] = [seg(marker.padEnd(2), style), ...first.slice(1)];
  return lines;
}

/**
 * An assistant text block: its Markdown drawn under the `•` marker, two cells in; while
 * streaming, a cursor after the last character.
 */
function assistantText(
  text: string,
  width: number,
  cursor: boolean,
  stream: MarkdownStream | undefined,
): StyledLine[] {
  const room = Math.max(4, width - 2);
  const body = stream !== undefined ? stream.lines(text, room) : markdownLines(text, room);
  const lines: StyledLine[] = body.length > 0 ? body.map((line) => [seg('  '), ...line]) : [[]];
  if (cursor) {
    const last = lines[lines.length - 1] ?? [];
    if (lineWidth(last) < width) lines[lines.length - 1] = [...last, seg('▍')];
    else lines.push([seg('  ▍')]);
  }
  const first = lines[0] ?? [];
  lines[0] = [seg('• ', theme.assistant), ...(body.length > 0 ? first.slice(1) : [])];
  return lines;
}

function reasoningLines(text: string, width: number, full: boolean): StyledLine[] {
  if (full) return message(text, width, '∴', theme.reasoning, theme.reasoning);
  const lines = text.trim().split('\n');
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines, Enter)` : '';
  return [
    truncateLine(
      [
        seg('∴ thinking: ', theme.reasoning),
        seg(oneLine(lines[0] ?? ''), theme.reasoning),
        seg(more, theme.dim),
      ],
      width,
    ),
  ];
}

function cardItem(
  key: string,
  block: ConversationItem['block'] & object,
  context: NodeContext,
): ConversationItem {
  const draw = (width: number, mode: 'conversation' | 'details') => {
    const lines = renderToolCard(block, context.registry, { ...context.card, width, mode });
    return link === undefined ? lines : [...lines, linkLine(link, width)];
  };
  const link = context.card.cards.card(block, context.card.facts).link;
  return {
    key,
    block,
    lines: draw(context.width, 'conversation'),
    details: (w) => draw(w, 'details'),
    ...(link !== undefined ? { link } : {}),
  };
}

/** The line under an item that leads to another session: what `l` opens. */
function linkLine(link: SessionLink, width: number): StyledLine {
  return truncateLine(
    [seg('  ↪ ', theme.link), seg(oneLine(link.label), theme.link), seg(' (l)', theme.dim)],
    width,
  );
}

function textItem(
  key: string,
  draw: (width: number, full: boolean) => StyledLine[],
  width: number,
  text?: string,
): ConversationItem {
  const item = { key, lines: draw(width, false), details: (w: number) => draw(w, true) };
  return text === undefined ? item : { ...item, text };
}

/**
 * The items of assistant blocks: a finished message, or the partial (`growing`, drawn by
 * stream renderers) with a cursor after its last block while `streaming`.
 */
export function assistantItems(
  keyPrefix: string,
  blocks: readonly AssistantBlock[],
  context: NodeContext,
  streaming: boolean,
  growing = streaming,
): ConversationItem[] {
  const items: ConversationItem[] = [];
  blocks.forEach((block, i) => {
    const key = `${keyPrefix}:${i}`;
    switch (block.kind) {
      case 'text': {
        if (block.text.trim() === '' && !streaming) return;
        const cursor = streaming && i === blocks.length - 1;
        const stream = growing ? context.markdownStream?.(key) : undefined;
        items.push(
          textItem(
            key,
            (w, full) => assistantText(block.text, w, cursor && !full, full ? undefined : stream),
            context.width,
            block.text,
          ),
        );
        return;
      }
      case 'reasoning':
        items.push(
          textItem(
            key,
            (w, full) => reasoningLines(block.text, w, full),
            context.width,
            block.text,
          ),
        );
        return;
      case 'tool-call':
        items.push(cardItem(`call:${block.callId}`, block.tool, context));
        return;
      default: {
        const unknown: never = block;
        throw new Error(`unhandled assistant block ${JSON.stringify(unknown)}`);
      }
    }
  });
  return items;
}

/** The partial message: its blocks, with a cursor while it is `streaming`. */
export function partialItems(
  partial: PartialMessage,
  context: NodeContext,
  streaming: boolean,
): ConversationItem[] {
  const items = assistantItems(`partial:${partial.seq}`, partial.blocks, context, streaming, true);
  if (items.length === 0) {
    items.push(
      textItem(
        `partial:${partial.seq}`,
        () => [[seg('• ', theme.assistant), seg('…', theme.dim)]],
        context.width,
      ),
    );
  }
  return items;
}

function fixed(
  key: string,
  lines: StyledLine[],
  details?: (width: number) => StyledLine[],
): ConversationItem {
  return { key, lines, details: details ?? (() => lines) };
}

/** The items one conversation node draws (SPEC 9: messages, cards, markers). */
export function nodeItems(node: ConversationNode, context: NodeContext): ConversationItem[] {
  const width = context.width;
  const key = `n:${node.seq}`;
  switch (node.kind) {
    case 'user': {
      const source =
        node.source !== '' && node.source !== 'user' ? ` (${oneLine(node.source)})` : '';
      const text = flattenContent(node.content);
      const draw = (w: number) => [[], ...message(text + source, w, '›', theme.user, theme.bold)];
      return [textItem(key, draw, width, text)];
    }
    case 'assistant': {
      const items = assistantItems(key, node.blocks, context, false);
      if (node.interrupted)
        items.push(
          fixed(`${key}:interrupted`, [[seg('⊘ interrupted while streaming', theme.stopped)]]),
        );
      return items;
    }
    case 'steering': {
      const text = flattenContent(node.content);
      return [textItem(key, (w) => message(`steer: ${text}`, w, '↪', theme.notice), width, text)];
    }
    case 'context': {
      const { label, text, link } = contextView(node);
      const draw = (w: number, full: boolean) => {
        const lines = full
          ? message(`${label}\n${text}`, w, '·', theme.dim, theme.dim)
          : [truncateLine([seg(`· ${label}: `, theme.dim), seg(oneLine(text), theme.dim)], w)];
        return link === undefined ? lines : [...lines, linkLine(link, w)];
      };
      const item = textItem(key, draw, width, text);
      return [link === undefined ? item : { ...item, link }];
    }
    case 'tool-result':
      return [cardItem(`call:${node.tool.callId}`, node.tool, context)];
    case 'turn-end': {
      if (node.reason === TurnEndReason.CANCELLED) {
        return [fixed(key, [[seg(`⊘ turn ${node.turn} interrupted`, theme.stopped)]])];
      }
      if (node.reason === TurnEndReason.ERROR) {
        return [fixed(key, [[seg(`✗ turn ${node.turn} ended with an error`, theme.error)]])];
      }
      return [];
    }
    case 'agent-error': {
      const code = node.code !== '' ? ` (${oneLine(node.code)})` : '';
      return [
        textItem(
          key,
          (w) => message(`${node.message}${code}`, w, '✗', theme.error, theme.error),
          width,
          node.message,
        ),
      ];
    }
    case 'compaction':
      return [textItem(key, (w, full) => compactionLines(node, w, full), width)];
    case 'unknown': {
      const type = node.type === '' ? 'event without payload' : oneLine(node.type);
      const draw = (w: number, full: boolean) =>
        full
          ? [
              [seg(`{} ${type}`, theme.dim)],
              ...textLines(prettyJson(node.dataJson), w, { indent: 2 }),
            ]
          : [
              truncateLine(
                [seg(`{} ${type} `, theme.dim), seg(oneLine(node.dataJson), theme.dim)],
                w,
              ),
            ];
      return [textItem(key, draw, width, node.dataJson)];
    }
    default: {
      const unknown: never = node;
      throw new Error(`unhandled node ${JSON.stringify(unknown)}`);
    }
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
