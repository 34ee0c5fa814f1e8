import {
  flattenContent,
  type AssistantBlock,
  type ConversationNode,
  type PartialMessage,
} from '@dsh/card-models';
import { TurnEndReason } from '@dsh/gen/events';
import { renderToolCard } from '../cards/render-tool-card.js';
import type { CardContext, TuiRendererRegistry } from '../cards/card-renderer.js';
import { oneLine, textLines } from '../cards/text-lines.js';
import { theme } from '../cards/theme.js';
import { seg, type StyledLine, type TextStyle } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import type { ConversationItem } from './conversation-item.js';
import { compactionLines } from './render-compaction.js';

/** What drawing a node needs besides the node: the registry and the card context. */
export interface NodeContext {
  readonly registry: TuiRendererRegistry;
  readonly card: Omit<CardContext, 'width' | 'mode'>;
  readonly width: number;
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
  const draw = (width: number, mode: 'conversation' | 'details') =>
    renderToolCard(block, context.registry, { ...context.card, width, mode });
  return {
    key,
    block,
    lines: draw(context.width, 'conversation'),
    details: (w) => draw(w, 'details'),
  };
}

function textItem(
  key: string,
  draw: (width: number, full: boolean) => StyledLine[],
  width: number,
): ConversationItem {
  return { key, lines: draw(width, false), details: (w) => draw(w, true) };
}

/** The items of assistant blocks (a finished message or the streaming partial). */
export function assistantItems(
  keyPrefix: string,
  blocks: readonly AssistantBlock[],
  context: NodeContext,
  streaming: boolean,
): ConversationItem[] {
  const items: ConversationItem[] = [];
  blocks.forEach((block, i) => {
    const key = `${keyPrefix}:${i}`;
    switch (block.kind) {
      case 'text': {
        if (block.text.trim() === '' && !streaming) return;
        const cursor = streaming && i === blocks.length - 1 ? '▍' : '';
        items.push(
          textItem(
            key,
            (w) => message(block.text + cursor, w, '•', theme.assistant),
            context.width,
          ),
        );
        return;
      }
      case 'reasoning':
        items.push(textItem(key, (w, full) => reasoningLines(block.text, w, full), context.width));
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
  const items = assistantItems(`partial:${partial.seq}`, partial.blocks, context, streaming);
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
      const draw = (w: number) => [
        [],
        ...message(flattenContent(node.content) + source, w, '›', theme.user, theme.bold),
      ];
      return [textItem(key, draw, width)];
    }
    case 'assistant': {
      const items = assistantItems(key, node.blocks, context, false);
      if (node.interrupted)
        items.push(
          fixed(`${key}:interrupted`, [[seg('⊘ interrupted while streaming', theme.stopped)]]),
        );
      return items;
    }
    case 'steering':
      return [
        textItem(
          key,
          (w) => message(`steer: ${flattenContent(node.content)}`, w, '↪', theme.notice),
          width,
        ),
      ];
    case 'context': {
      const label = `context${node.envelope !== '' ? ` (${oneLine(node.envelope)})` : ''}`;
      const text = flattenContent(node.content);
      const draw = (w: number, full: boolean) =>
        full
          ? message(`${label}\n${text}`, w, '·', theme.dim, theme.dim)
          : [truncateLine([seg(`· ${label}: `, theme.dim), seg(oneLine(text), theme.dim)], w)];
      return [textItem(key, draw, width)];
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
      return [textItem(key, draw, width)];
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
