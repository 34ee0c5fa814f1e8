import { flushPromises, mount } from '@vue/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import MarkdownText from '../../src/components/MarkdownText.vue';
import { loadLanguage } from '../../src/format/highlighter.js';

beforeAll(async () => {
  await Promise.all(['typescript', 'bash', 'python'].map((name) => loadLanguage(name)));
});

const cases: [string, string][] = [
  ['a fenced code block with its language', '```ts\nconst answer: number = 42; // yes\n```'],
  ['an alias and an unknown language', '```sh\necho "hi" | wc -c\n```\n\n```brainfuck\n+++.\n```'],
  ['an indented block without a language', 'text\n\n    plain code\n    line 2'],
  ['a blockquote', '> quoted **bold**\n> second line'],
  ['a table', '| tool | calls |\n| --- | ---: |\n| bash | 3 |\n| read | 12 |'],
  ['a task list', '- [ ] open task\n- [x] done task\n- plain item'],
  ['raw HTML stays text', '<img src=x onerror=alert(1)> and <script>alert(2)</script>'],
  [
    'only http(s) links',
    '[ok](https://example.com) [bad](javascript:alert(1)) ![pic](data:image/png;base64,AA)',
  ],
  ['code is never HTML', '```html\n<script>alert(1)</script>\n```'],
];

describe('MarkdownText', () => {
  it.each(cases)('renders %s', async (name, text) => {
    const wrapper = mount(MarkdownText, { props: { text } });
    await flushPromises();
    expect(wrapper.element.querySelectorAll('script, img, iframe, [onerror]')).toHaveLength(0);
    for (const link of wrapper.element.querySelectorAll('a')) {
      expect(link.getAttribute('href')).toMatch(/^https?:/);
    }
    await expect(wrapper.html()).toMatchFileSnapshot(
      `__snapshots__/markdown/${name.replace(/[^a-z0-9]+/gi, '-')}.html`,
    );
  });

  it('copies a code block with its copy button', async () => {
    let copied = '';
    Object.defineProperty(globalThis, 'isSecureContext', { value: true, configurable: true });
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async (text: string) => void (copied = text) },
      configurable: true,
    });
    const wrapper = mount(MarkdownText, { props: { text: '```bash\nls -la\necho done\n```' } });
    await wrapper.get('[data-copy="code"]').trigger('click');
    await flushPromises();
    expect(copied).toBe('ls -la\necho done');
    expect(wrapper.get('[data-copy="code"]').text()).toBe('Copied');
  });
});
