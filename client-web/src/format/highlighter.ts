import { highlightLinesWith, type HighlightToken } from '@dsh/card-models';
import type { LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import { ref } from 'vue';

type Loader = () => Promise<{ default: LanguageFn }>;

/**
 * The languages the web client can highlight (highlight.js's common set), each loaded on
 * first use as its own chunk, so the initial script carries none of them.
 */
const loaders: Readonly<Record<string, Loader>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** Names people and tools use for those languages (highlight.js's own aliases). */
const aliases: Readonly<Record<string, string>> = {
  sh: 'bash',
  zsh: 'bash',
  console: 'shell',
  shellsession: 'shell',
  h: 'c',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  'c++': 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  patch: 'diff',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  kt: 'kotlin',
  mk: 'makefile',
  make: 'makefile',
  md: 'markdown',
  objc: 'objectivec',
  pl: 'perl',
  text: 'plaintext',
  txt: 'plaintext',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  vb: 'vbnet',
  html: 'xml',
  xhtml: 'xml',
  svg: 'xml',
  vue: 'xml',
  yml: 'yaml',
};

/** The highlight.js name of `lang` ('' when the client cannot highlight it). */
export function languageName(lang: string): string {
  const lower = lang.trim().toLowerCase();
  const name = aliases[lower] ?? lower;
  return Object.hasOwn(loaders, name) ? name : '';
}

/** Every language the client can load, by highlight.js name. */
export const highlightLanguages: readonly string[] = Object.keys(loaders);

/** Bumped whenever a language finishes loading: highlighted views recompute. */
const loadedVersion = ref(0);
const loading = new Map<string, Promise<void>>();

/** Loads a language's grammar once; resolves when it is registered (or failed to load). */
export function loadLanguage(lang: string): Promise<void> {
  const name = languageName(lang);
  const loader = name === '' ? undefined : loaders[name];
  if (loader === undefined || hljs.getLanguage(name) !== undefined) return Promise.resolve();
  let promise = loading.get(name);
  if (promise === undefined) {
    promise = loader()
      .then((module) => {
        hljs.registerLanguage(name, module.default);
        loadedVersion.value += 1;
      })
      .catch(() => undefined);
    loading.set(name, promise);
  }
  return promise;
}

/**
 * Highlights lines as card-models' tokens (text in spans, never HTML). A language not yet
 * loaded gives plain tokens now and starts loading it; a reactive caller recomputes with
 * colours once it arrives.
 */
export function highlight(lines: readonly string[], lang: string): HighlightToken[][] {
  void loadedVersion.value;
  const name = languageName(lang);
  if (name !== '' && hljs.getLanguage(name) === undefined) void loadLanguage(name);
  return highlightLinesWith(hljs, lines, name);
}

/** `title.function` -> `dsh-hl-title dsh-hl-title-function`: one class per scope level. */
export function scopeClasses(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  const parts = scope.split('.');
  return parts.map((_, i) => `dsh-hl-${parts.slice(0, i + 1).join('-')}`);
}
