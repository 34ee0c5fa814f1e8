import MarkdownIt from 'markdown-it';

const safeLink = /^https?:\/\//i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
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
  const alt = md.utils.escapeHtml(String(token?.content ?? ''));
  return safeLink.test(src)
    ? `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer nofollow">${alt || 'image'}</a>`
    : alt;
};

/**
 * Renders assistant Markdown to HTML that is safe to insert: raw HTML in the text is
 * escaped (markdown-it `html: false`), links and images allow only http(s) URLs.
 */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
