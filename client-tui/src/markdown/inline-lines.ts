import type { Token } from 'markdown-it';
import { theme } from '../cards/theme.js';
import { sanitizeText } from '../text/sanitize-text.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';
import { mergeStyle } from './merge-style.js';

/** Text of a link as the person sees it, compared with its URL (an autolink shows once). */
function sameTarget(text: string, href: string): boolean {
  const bare = (value: string) => value.replace(/^mailto:/i, '').replace(/\/$/, '');
  return bare(text) === bare(href);
}

/**
 * The inline children of one markdown-it `inline` token as logical lines (split at hard
 * breaks; a soft break is a space): bold, italic, strikethrough, inline code, and links
 * drawn as their text followed by the URL, so the person can read where a link goes.
 * Every text is sanitized; `base` styles everything.
 */
export function inlineLines(children: readonly Token[], base?: TextStyle): StyledLine[] {
  const lines: Segment[][] = [[]];
  const stack: (TextStyle | undefined)[] = [base];
  const links: { href: string; text: string }[] = [];
  const push = (text: string, style: TextStyle | undefined) => {
    if (text === '') return;
    const clean = sanitizeText(text).replace(/\n/g, ' ');
    if (clean === '') return;
    lines[lines.length - 1]?.push(style === undefined ? { text: clean } : { text: clean, style });
    const link = links[links.length - 1];
    if (link !== undefined) link.text += clean;
  };
  const current = () => stack[stack.length - 1];
  const open = (extra: TextStyle) => stack.push(mergeStyle(current(), extra));
  for (const token of children) {
    switch (token.type) {
      case 'text':
        push(token.content, current());
        break;
      case 'softbreak':
        push(' ', current());
        break;
      case 'hardbreak':
        lines.push([]);
        break;
      case 'code_inline':
        push(token.content, mergeStyle(current(), theme.code));
        break;
      case 'strong_open':
        open(theme.bold);
        break;
      case 'em_open':
        open({ italic: true });
        break;
      case 's_open':
        open({ strike: true });
        break;
      case 'link_open':
        open(theme.link);
        links.push({
          href: sanitizeText(String(token.attrGet('href') ?? '')).replace(/\n/g, ''),
          text: '',
        });
        break;
      case 'link_close': {
        stack.pop();
        const link = links.pop();
        if (link !== undefined && link.href !== '' && !sameTarget(link.text, link.href)) {
          push(` (${link.href})`, mergeStyle(current(), theme.linkUrl));
        }
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
        if (stack.length > 1) stack.pop();
        break;
      case 'image': {
        const src = sanitizeText(String(token.attrGet('src') ?? '')).replace(/\n/g, '');
        const alt = token.children?.map((child) => child.content).join('') ?? token.content;
        push(`[image: ${alt === '' ? 'no description' : alt}]`, mergeStyle(current(), theme.dim));
        if (src !== '') push(` (${src})`, mergeStyle(current(), theme.linkUrl));
        break;
      }
      case 'html_inline':
        push(token.content, current());
        break;
      default:
        // Tokens of syntax this client does not enable: their text, never their markup.
        push(token.content, current());
        break;
    }
  }
  return lines;
}
