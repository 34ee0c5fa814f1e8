import { createConversation, type PathFacts } from '@dsh/card-models';
import type { SessionEvent } from '@dsh/gen/events';
import { getActivePinia } from 'pinia';
import { createApp, nextTick } from 'vue';
import { createWebRegistry, rendererRegistryKey } from '../cards/index.js';
import ExportDocument from '../components/ExportDocument.vue';
import { highlightLanguages, loadLanguage } from './highlighter.js';
import { terminalEmulatorReady } from './terminal-emulator.js';

/** What a saved page may load: its own styles and images in it, nothing from anywhere. */
const policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Every style rule the page uses (the app's CSS and the components'), as text. */
function pageCss(): string {
  return [...document.styleSheets]
    .flatMap((sheet) => {
      try {
        return [...sheet.cssRules].map((rule) => rule.cssText);
      } catch {
        return [];
      }
    })
    .join('\n');
}

async function dataUrl(src: string): Promise<string> {
  const blob = await (await fetch(src)).blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('cannot read an image'));
    reader.readAsDataURL(blob);
  });
}

/**
 * The session as one self-contained HTML file that opens offline and looks like the
 * client: the conversation drawn by the page's own components (cards expanded, code
 * highlighted), the page's CSS inlined, images as data URLs (the blob URLs die with the
 * page), no script, and a content policy that lets it load nothing.
 */
export async function sessionHtml(options: {
  readonly title: string;
  readonly events: readonly SessionEvent[];
  readonly facts: PathFacts;
}): Promise<string> {
  await Promise.all(highlightLanguages.map((name) => loadLanguage(name).catch(() => undefined)));
  // Terminal cards replay through the emulator in the file; without its chunk, plain text.
  await terminalEmulatorReady().catch(() => undefined);
  const snapshot = createConversation().apply({ kind: 'replace', events: [...options.events] });
  const host = document.createElement('div');
  host.style.cssText = 'position:fixed;left:-10000px;top:0;width:920px;visibility:hidden';
  document.body.append(host);
  const app = createApp(ExportDocument, {
    title: options.title,
    cwd: options.facts.cwd,
    exportedAt: new Date().toLocaleString(),
    nodes: snapshot.nodes,
    facts: options.facts,
  });
  const pinia = getActivePinia();
  if (pinia !== undefined) app.use(pinia);
  app.provide(rendererRegistryKey, createWebRegistry());
  try {
    app.mount(host);
    await nextTick();
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const img of host.querySelectorAll<HTMLImageElement>('img[src^="blob:"]')) {
      const url = await dataUrl(img.src);
      img.src = url;
      img.removeAttribute('loading');
      const link = img.closest('a');
      if (link !== null) link.href = url;
    }
    const theme = document.documentElement.dataset['theme'] ?? 'light';
    return [
      '<!doctype html>',
      `<html lang="en" data-theme="${escapeHtml(theme)}">`,
      '<head>',
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeHtml(options.title)} · dsh</title>`,
      `<style>${pageCss().replaceAll('</style', '<\\/style')}\nhtml,body{height:auto}.export-document{overflow:visible}.export-document .copy-button{display:none}</style>`,
      '</head>',
      '<body>',
      host.innerHTML,
      '</body>',
      '</html>',
      '',
    ].join('\n');
  } finally {
    app.unmount();
    host.remove();
  }
}
