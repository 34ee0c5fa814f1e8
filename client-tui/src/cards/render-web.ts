import { seg, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import type { BodyOf, CardContext, TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { oneLine, textLines } from './text-lines.js';
import { theme } from './theme.js';

const previewSources = 5;

function searchLines(body: BodyOf<'web'> & { tool: 'web_search' }, context: CardContext) {
  const lines: StyledLine[] = [];
  const queries = body.queries.map(oneLine).join(', ');
  // The head row already shows the queries in the conversation.
  if (context.mode === 'details' || body.queries.length > 1) {
    lines.push(
      ...wrapLine([seg('search ', theme.dim), seg(queries, theme.bold)], context.width, 2),
    );
  }
  if (body.state === 'running') return lines;
  if (body.answer !== undefined) {
    const maxLines = context.mode === 'details' ? undefined : 3;
    lines.push(...textLines(body.answer, context.width, maxLines ? { maxLines } : {}));
  }
  const sources = context.mode === 'details' ? body.sources : body.sources.slice(0, previewSources);
  sources.forEach((source, i) => {
    const label = [seg(`${i + 1}. `, theme.dim), seg(oneLine(source.label), theme.bold)];
    lines.push(...wrapLine(label, context.width, 3));
    // Only http(s) URLs are links; anything else is shown as plain text.
    const url = seg(oneLine(source.url), source.href !== undefined ? theme.link : theme.dim);
    const date =
      source.publishedAt !== undefined
        ? seg(` ${oneLine(source.publishedAt)}`, theme.dim)
        : seg('');
    lines.push(...wrapLine([seg('   '), url, date], context.width, 3));
    if (context.mode === 'details' && source.snippet !== '') {
      lines.push(...textLines(source.snippet, context.width, { indent: 3, style: theme.dim }));
    }
  });
  if (sources.length < body.sources.length) {
    lines.push([
      seg(`… ${body.sources.length - sources.length} more sources (Enter: details)`, theme.dim),
    ]);
  }
  if (body.sources.length === 0) lines.push([seg('no sources', theme.dim)]);
  if (body.truncated) lines.push([seg('results truncated', theme.notice)]);
  return lines;
}

function fetchLines(body: BodyOf<'web'> & { tool: 'web_fetch' }, context: CardContext) {
  const lines: StyledLine[] = [];
  if (body.state === 'running') {
    const style = body.href !== undefined ? theme.link : theme.dim;
    return wrapLine([seg('fetch ', theme.dim), seg(oneLine(body.url), style)], context.width, 2);
  }
  const statusStyle = body.statusCode >= 400 ? theme.error : theme.ok;
  const head: StyledLine = [
    seg(oneLine(body.url), body.href !== undefined ? theme.link : theme.dim),
    seg(' '),
    seg(String(body.statusCode), statusStyle),
  ];
  lines.push(...wrapLine(head, context.width, 2));
  if (body.redirected) {
    lines.push(
      ...wrapLine(
        [seg(`redirected from ${oneLine(body.requestedUrl)}`, theme.dim)],
        context.width,
        2,
      ),
    );
  }
  if (body.truncated) lines.push([seg('page truncated', theme.notice)]);
  if (context.mode === 'details') lines.push(...textLines(body.body, context.width, { indent: 2 }));
  return lines;
}

/**
 * Web card: `web_search` queries, answer and numbered sources (only http/https URLs are
 * styled as links), truncation; `web_fetch` final URL, status, redirect, raw body in details.
 */
export const renderWeb: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'web') return renderGeneric(block, card, context);
  return body.tool === 'web_search' ? searchLines(body, context) : fetchLines(body, context);
};
