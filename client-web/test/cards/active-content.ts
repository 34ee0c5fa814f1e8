/** Everything in a rendered card that could run script or navigate to a non-http URL. */
export function activeContent(root: Element): string[] {
  const found: string[] = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'iframe', 'object', 'embed', 'img', 'style'].includes(tag))
      found.push(`<${tag}>`);
    for (const attr of el.getAttributeNames()) {
      const value = el.getAttribute(attr) ?? '';
      if (attr.startsWith('on')) found.push(`${tag}[${attr}]`);
      if (['href', 'src', 'action', 'formaction'].includes(attr) && !/^https?:\/\//i.test(value)) {
        found.push(`${tag}[${attr}=${value}]`);
      }
    }
  }
  return found;
}
