import MarkdownIt from 'markdown-it';
import { highlight, languageName, scopeClasses } from './highlighter.js';

const safeLink = /^https?:\/\//i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
const escape = md.utils.escapeHtml;
// Only http(s) URLs become links; everything else (javascript:, data:, file:, relative)
// stays plain text.
md.validateLink = (url: string) => safeLink.test(url.trim());
const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index];
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, index, options, env, self);
};
// Images would load remote content on render: show their alt text as a link instead.
md.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const src = String(token?.attrGet('src') ?? '');
  const alt = escape(String(token?.content ?? ''));
  return safeLink.test(src)
    ? `<a href="${escape(src)}" target="_blank" rel="noopener noreferrer nofollow">${alt || 'image'}</a>`
    : alt;
};

/**
 * Fenced and indented code: a head with the language label and a copy button, then the
 * code highlighted from card-models' tokens (escaped text in spans, never highlight.js's
 * own HTML). The copy button is handled by `MarkdownText` (event delegation).
 */
const codeBlock = (token: { info: string; content: string } | undefined): string => {
  if (token === undefined) return '';
  const info = token.info.trim().split(/\s+/)[0] ?? '';
  const lang = languageName(info);
  const text = token.content.replace(/\n$/, '');
  const lines = highlight(text.split('\n'), lang);
  const body = lines
    .map((line) =>
      line
        .map((part) =>
          part.scope === undefined
            ? escape(part.text)
            : `<span class="${scopeClasses(part.scope).join(' ')}">${escape(part.text)}</span>`,
        )
        .join(''),
    )
    .join('\n');
  const label = info === '' ? 'code' : escape(info);
  return (
    `<div class="md-code" data-lang="${escape(lang)}">` +
    `<div class="md-code-head"><span class="md-code-lang">${label}</span>` +
    `<button type="button" class="md-copy" data-copy="code" aria-label="Copy the ${label} code">Copy</button></div>` +
    `<pre><code>${body}</code></pre></div>\n`
  );
};
md.renderer.rules.fence = (tokens, index) => codeBlock(tokens[index]);
md.renderer.rules.code_block = (tokens, index) => codeBlock(tokens[index]);

const taskMarker = /^\[([ xX])\][ \t]+/;

/**
 * Task lists (`- [ ] todo`, `- [x] done`): a list item whose text starts with a box gets
 * a disabled checkbox and the `task` class. The checkbox markup is fixed text of this
 * rule, never taken from the message.
 */
md.core.ruler.after('inline', 'task-list', (state) => {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (
      inline?.type !== 'inline' ||
      tokens[i - 1]?.type !== 'paragraph_open' ||
      tokens[i - 2]?.type !== 'list_item_open'
    ) {
      continue;
    }
    const first = inline.children?.[0];
    const match = first?.type === 'text' ? taskMarker.exec(first.content) : null;
    if (first === undefined || match === null) continue;
    first.content = first.content.slice(match[0].length);
    const done = match[1] !== ' ';
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="md-task-box" disabled${done ? ' checked' : ''} aria-label="${done ? 'done' : 'not done'}"> `;
    inline.children?.unshift(box);
    tokens[i - 2]?.attrJoin('class', done ? 'task done' : 'task');
  }
});

/**
 * Renders assistant Markdown to HTML that is safe to insert: raw HTML in the text is
 * escaped (markdown-it `html: false`), links and images allow only http(s) URLs, code is
 * escaped text in highlight spans. Tables, blockquotes and task lists render as such.
 */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
