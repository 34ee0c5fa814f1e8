import type { Token } from 'markdown-it';
import { theme } from '../cards/theme.js';
import { sanitizeText } from '../text/sanitize-text.js';
import { seg, type Segment, type StyledLine, type TextStyle } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import { codeBlockLines, fenceLang } from './code-lines.js';
import { inlineLines } from './inline-lines.js';
import { tableLines, type CellAlign, type TableModel } from './table-lines.js';

const bullets = ['• ', '◦ ', '▪ '] as const;
const headingStyles: Readonly<Record<string, TextStyle>> = {
  h1: theme.heading1,
  h2: theme.heading,
};

/** Lines with `first` before the first row and `rest` before every other row. */
function prefixed(lines: readonly StyledLine[], first: Segment, rest: Segment): StyledLine[] {
  return lines.map((line, i) => [i === 0 ? first : rest, ...line]);
}

/** Wrapped inline text: each logical line (hard breaks) wrapped to `width`. */
function paragraph(token: Token | undefined, width: number, style?: TextStyle): StyledLine[] {
  const logical = inlineLines(token?.children ?? [], style);
  return logical.flatMap((line) => wrapLine(line, width));
}

/** The index of the token closing the one at `start` (same nesting level). */
function closing(tokens: readonly Token[], start: number): number {
  const open = tokens[start];
  if (open === undefined || open.nesting !== 1) return start;
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    depth += tokens[i]?.nesting ?? 0;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

function cellAlign(token: Token | undefined): CellAlign {
  const style = String(token?.attrGet('style') ?? '');
  if (style.includes('right')) return 'right';
  if (style.includes('center')) return 'center';
  return 'left';
}

function tableModel(tokens: readonly Token[], start: number, end: number): TableModel {
  const header: StyledLine[] = [];
  const rows: StyledLine[][] = [];
  const aligns: CellAlign[] = [];
  let row: StyledLine[] | undefined;
  let inHead = false;
  for (let i = start; i <= end; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    if (token.type === 'thead_open') inHead = true;
    else if (token.type === 'thead_close') inHead = false;
    else if (token.type === 'tr_open') row = inHead ? header : [];
    else if (token.type === 'tr_close') {
      if (row !== undefined && row !== header) rows.push(row);
      row = undefined;
    } else if (token.type === 'th_open' || token.type === 'td_open') {
      if (inHead) aligns.push(cellAlign(token));
      const inline = tokens[i + 1];
      const cell = inline?.type === 'inline' ? inlineLines(inline.children ?? []) : [];
      row?.push(cell.flatMap((line, n) => (n > 0 ? [seg(' '), ...line] : [...line])));
    }
  }
  return { header, rows, aligns };
}

/**
 * Renders the block tokens from `start` to `end` (inclusive) at `width`: one blank line
 * between blocks, lists and quotes drawn with their own prefixes around their blocks.
 * `tight` (a tight list item) draws paragraphs without the blank line between them.
 */
export function blockLines(
  tokens: readonly Token[],
  start: number,
  end: number,
  width: number,
  tight = false,
): StyledLine[] {
  const out: StyledLine[] = [];
  const room = Math.max(4, width);
  const add = (lines: readonly StyledLine[]) => {
    if (lines.length === 0) return;
    if (out.length > 0 && !tight) out.push([]);
    out.push(...lines);
  };
  for (let i = start; i <= end; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    switch (token.type) {
      case 'paragraph_open': {
        add(paragraph(tokens[i + 1], room));
        i = closing(tokens, i);
        break;
      }
      case 'heading_open': {
        add(paragraph(tokens[i + 1], room, headingStyles[token.tag] ?? theme.heading3));
        i = closing(tokens, i);
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const close = closing(tokens, i);
        add(listLines(tokens, i, close, room));
        i = close;
        break;
      }
      case 'blockquote_open': {
        const close = closing(tokens, i);
        const inner = blockLines(tokens, i + 1, close - 1, room - 2);
        const bar = seg('│ ', theme.quote);
        add(prefixed(inner.length > 0 ? inner : [[]], bar, bar));
        i = close;
        break;
      }
      case 'fence':
        add(codeBlockLines(token.content, fenceLang(token.info), room));
        break;
      case 'code_block':
        add(codeBlockLines(token.content, '', room));
        break;
      case 'hr':
        add([[seg('─'.repeat(Math.min(room, 40)), theme.tableRule)]]);
        break;
      case 'table_open': {
        const close = closing(tokens, i);
        add(tableLines(tableModel(tokens, i, close), room));
        i = close;
        break;
      }
      case 'inline':
        add(paragraph(token, room));
        break;
      default:
        if (token.nesting === 1) {
          // A container this client has no drawing for: its blocks, unadorned.
          const close = closing(tokens, i);
          add(blockLines(tokens, i + 1, close - 1, room));
          i = close;
        } else if (token.nesting === 0 && token.content !== '') {
          add(
            sanitizeText(token.content)
              .replace(/\n+$/, '')
              .split('\n')
              .flatMap((line) => wrapLine([seg(line)], room)),
          );
        }
        break;
    }
  }
  return out;
}

function listLines(
  tokens: readonly Token[],
  start: number,
  end: number,
  width: number,
): StyledLine[] {
  const list = tokens[start] as Token;
  const ordered = list.type === 'ordered_list_open';
  const depth = Math.min(bullets.length - 1, Math.floor(list.level / 2));
  let number = Number(list.attrGet('start') ?? '1');
  // The widest number sets the indent of every item, so their text lines up.
  let items = 0;
  for (let i = start + 1; i < end; i++)
    if (tokens[i]?.type === 'list_item_open' && tokens[i]?.level === list.level + 1) items++;
  const marker = (n: number) =>
    ordered ? `${n}${list.markup === ')' ? ')' : '.'} ` : (bullets[depth] ?? '• ');
  const indent = ordered ? marker(number + items - 1).length : 2;
  // markdown-it hides the paragraphs of a tight list.
  let tight = false;
  for (let i = start + 1; i < end; i++) {
    const token = tokens[i];
    if (token?.type === 'paragraph_open' && token.level === list.level + 2) {
      tight = token.hidden;
      break;
    }
  }
  const out: StyledLine[] = [];
  for (let i = start + 1; i < end; i++) {
    const token = tokens[i];
    if (token?.type !== 'list_item_open') continue;
    const close = closing(tokens, i);
    const body = blockLines(tokens, i + 1, close - 1, width - indent, tight);
    if (!tight && out.length > 0) out.push([]);
    const label = ordered ? marker(number).padStart(indent) : marker(number);
    out.push(
      ...prefixed(
        body.length > 0 ? body : [[]],
        seg(label, theme.listMarker),
        seg(' '.repeat(indent)),
      ),
    );
    number++;
    i = close;
  }
  return out;
}
