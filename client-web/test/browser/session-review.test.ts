// @vitest-environment node
import {
  assistantMessage,
  reasoning,
  reasoningChunks,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedFilesSession } from '../components/changed-files.js';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the session review browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost({ chunkDelayMs: 1, models: ['demo', 'demo-large'] });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** A session holding `payloads`, one event every `stepMs` from `startMs`. */
async function sessionWith(
  title: string,
  payloads: Parameters<Awaited<ReturnType<WebHost['journal']>>['append']>[0],
  startMs = Date.now() - 3_600_000,
  stepMs = 1_000,
): Promise<string> {
  const id = await host.createSession(title);
  const journal = await host.journal(id);
  await journal.append(payloads, { times: payloads.map((_, i) => new Date(startMs + i * stepMs)) });
  return id;
}

describe.skipIf(missing !== undefined)(
  'reviewing a session in Chromium',
  { timeout: 90_000 },
  () => {
    it('lists the changed files, the latest first, with the combined diff and the hunks of each turn', async () => {
      const id = await sessionWith('Math module', changedFilesSession);
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${id}`);
      await page.getByText('Added `sub`.').or(page.getByText('Added sub.')).first().waitFor();
      await page.locator('body').press('c');
      const files = page.locator('[data-testid="change-file"]');
      await files.first().waitFor();
      expect(await files.locator('.change-path').allTextContents()).toEqual([
        'src/math.ts',
        'README.md',
      ]);
      const combined = page.locator('[data-testid="combined-diff"]');
      expect(await combined.getAttribute('data-kind')).toBe('net');
      // The net change: the untyped line never shows as added, the final lines do.
      const added = await combined.locator('tr.dsh-diff-added .dsh-src').allTextContents();
      expect(added).toContain('export function sub(a: number, b: number): number {');
      expect(added).not.toContain('export function add(a, b) {');
      expect(
        await page
          .locator('[data-testid="file-edit-turn"]')
          .evaluateAll((turns) => turns.map((t) => (t as HTMLElement).dataset['turn'])),
      ).toEqual(['1', '2', '3']);
      await page.screenshot({ path: `${artifacts}changes-panel.png` });

      await files.nth(1).click();
      await page.locator('.change-title', { hasText: 'README.md' }).waitFor();
      expect(await page.locator('[data-testid="file-edit"]').count()).toBe(1);
      await page.locator('[data-action="open-edit"]').click();
      await page.locator('[data-testid="details"]').waitFor();
      expect(await page.locator('[data-testid="details"]').textContent()).toContain('README.md');
      await page.screenshot({ path: `${artifacts}changes-file.png` });
      // `c` again goes back to the conversation.
      await page.locator('[data-action="changes"]').focus();
      await page.keyboard.press('Escape');
      await page.locator('body').press('c');
      await page.locator('[data-testid="changes"]').waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
      await page.close();
    });

    it('shows how long thinking, each call and the turn took, and when each message was written', async () => {
      const t1 = { turn: 1 };
      const id = await sessionWith('Timed turn', [
        turnStart(1),
        userMessage('How many files?'),
        // blockStart, three deltas, blockEnd: one event a second, so four seconds of thinking.
        ...reasoningChunks(t1, 0, ['Count ', 'them ', 'with ls.']),
        assistantMessage(t1, [
          reasoning('Count them with ls.'),
          'Counting.',
          toolCallBlock('ls1', 'bash', { command: 'ls' }),
        ]),
        toolCall('ls1', 'bash', { command: 'ls' }),
        toolResult('ls1', 'a\nb'),
        assistantMessage({ turn: 1, step: 1 }, ['Two files.']),
        turnEnd(1),
      ]);
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${id}`);
      await page.getByText('Two files.').waitFor();
      expect(await page.locator('.reasoning summary').textContent()).toContain('Thought for 4.0 s');
      const card = page.locator('.dsh-card[data-call-id="ls1"]');
      expect(await card.locator('[data-field="duration"]').textContent()).toBe('1.0 s');
      // turn/start to turn/end: 12 events, 11 s.
      expect(await page.locator('[data-fact="duration"]').first().textContent()).toContain('s');
      // The person's message and both assistant messages carry their time, exact in the tooltip.
      expect(await page.locator('.bubble .message-time').count()).toBe(1);
      expect(await page.locator('.assistant-time').count()).toBe(2);
      expect(await page.locator('.assistant-time').first().getAttribute('title')).toMatch(
        /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
      );
      await page.locator('.reasoning summary').click();
      await page.screenshot({ path: `${artifacts}turn-times.png` });
      expect(errors).toEqual([]);
      await page.close();
    });

    it('exports a range of turns as a web page and as Markdown, and says when the range is wrong', async () => {
      const payloads = [1, 2, 3, 4].flatMap((turn) => [
        userMessage(`Question ${turn}`),
        turnStart(turn),
        assistantMessage({ turn }, [`Answer ${turn}`]),
        turnEnd(turn),
      ]);
      const id = await sessionWith('Four turns', payloads);
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${id}`);
      await page.getByText('Answer 4').waitFor();
      await page.click('[data-testid="export"] summary');
      await page.fill('[data-field="from-turn"]', '2');
      await page.fill('[data-field="to-turn"]', '3');
      await page.screenshot({ path: `${artifacts}export-range.png` });
      const save = async (action: string): Promise<{ name: string; text: string }> => {
        const [file] = await Promise.all([
          page.waitForEvent('download', { timeout: 30_000 }),
          page.click(`[data-action="${action}"]`),
        ]);
        return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
      };
      const markdown = await save('export-markdown');
      expect(markdown.name).toBe(`${id}-turns-2-3.md`);
      expect(markdown.text.startsWith('# Four turns (turns 2–3)\n')).toBe(true);
      for (const turn of [2, 3]) expect(markdown.text).toContain(`Answer ${turn}`);
      for (const turn of [1, 4]) expect(markdown.text).not.toContain(`Question ${turn}`);

      await page.click('[data-testid="export"] summary');
      const html = await save('export-html');
      expect(html.name).toBe(`${id}-turns-2-3.html`);
      expect(html.text).toContain('Four turns (turns 2–3)');
      expect(html.text).toContain('Question 2');
      expect(html.text).not.toContain('Question 1');
      expect(html.text).not.toContain('Answer 4');
      expect(html.text).not.toMatch(/<script/i);

      await page.click('[data-testid="export"] summary');
      await page.fill('[data-field="from-turn"]', '3');
      await page.fill('[data-field="to-turn"]', '9');
      await page.click('[data-action="export-markdown"]');
      await page.getByText('The session has turns 1–4: pick turns inside that range.').waitFor();
      expect(errors).toEqual([]);
      await page.close();
    });

    it('"+ New" asks for a folder and a model and makes a root session; Branch makes a child of the open one', async () => {
      const openId = await sessionWith('Parent work', changedFilesSession);
      const parent = await host.journal(openId);
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${openId}`);
      await page.locator('.topbar .title-text', { hasText: 'Parent work' }).waitFor();
      await page.click('[data-action="create"]');
      const dialog = page.locator('[data-testid="new-session"]');
      await dialog.waitFor();
      expect(await dialog.locator('.modal-title').textContent()).toBe('New session');
      expect(await page.inputValue('[data-testid="new-cwd"]')).toBe(host.dir);
      const picker = dialog.locator('[data-testid="new-model"]');
      expect(await picker.locator('option').allTextContents()).toEqual(['demo', 'demo-large']);
      expect(await picker.inputValue()).toBe('demo');
      await picker.selectOption('demo-large');
      await page.screenshot({ path: `${artifacts}new-session-models.png` });
      await page.click('[data-action="create-session"]');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction((before) => !window.location.hash.endsWith(before), openId);
      const rootId = decodeURIComponent(new URL(page.url()).hash.replace('#/s/', ''));
      const root = await host.journal(rootId);
      expect([root.header.model, root.header.parentId, root.header.cwd]).toEqual([
        'demo-large',
        '',
        host.dir,
      ]);

      // Branch, from the open session: a child in its folder, with its model to start with.
      await page.goto(`${host.url}/#/s/${openId}`);
      await page.locator('.topbar .title-text', { hasText: 'Parent work' }).waitFor();
      await page.locator('[data-testid="conversation"]').click();
      await page.keyboard.press('b');
      await dialog.waitFor();
      expect(await dialog.locator('.modal-title').textContent()).toBe('Branch of “Parent work”');
      expect(await page.inputValue('[data-testid="new-cwd"]')).toBe(parent.header.cwd);
      // The model last chosen here is offered first unless the parent's own is runnable.
      expect(await picker.inputValue()).toBe('demo');
      await page.fill('[data-testid="new-title"]', 'A branch');
      await page.screenshot({ path: `${artifacts}branch-dialog.png` });
      await page.click('[data-action="create-session"]');
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.topbar .title-text', { hasText: 'A branch' }).waitFor();
      const branchId = decodeURIComponent(new URL(page.url()).hash.replace('#/s/', ''));
      expect((await host.journal(branchId)).header.parentId).toBe(openId);
      expect(
        await page.locator(`.session-row[data-session-id="${branchId}"] .row-title`).textContent(),
      ).toContain('↳');

      // On a phone the top bar keeps Branch reachable and scrolls nowhere sideways.
      const phone = await browser.page(390, 800);
      await phone.page.goto(`${host.url}/#/s/${openId}`);
      const branch = phone.page.locator('[data-action="branch"]');
      await branch.waitFor();
      expect((await branch.boundingBox())?.height).toBeGreaterThanOrEqual(40);
      expect(
        await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await phone.page.screenshot({ path: `${artifacts}branch-phone.png` });
      expect([...errors, ...phone.errors]).toEqual([]);
      await phone.page.close();
      await page.close();
    });

    it('passes the session list in one Tab stop, copies a command and a diff, and shows the latest todos', async () => {
      const todos = {
        todos: [
          { content: 'List the files', status: 'completed' },
          { content: 'Type the module', status: 'in_progress' },
        ],
      };
      const id = await sessionWith('Keys and copies', [
        ...changedFilesSession,
        turnStart(4),
        userMessage('Plan and list'),
        assistantMessage({ turn: 4 }, [
          toolCallBlock('td1', 'todo_write', todos),
          toolCallBlock('ls4', 'bash', { command: 'ls -la src' }),
        ]),
        toolCall('td1', 'todo_write', todos, { turn: 4 }),
        toolResult('td1', 'ok', { turn: 4 }),
        toolCall('ls4', 'bash', { command: 'ls -la src' }, { turn: 4 }),
        toolResult('ls4', 'math.ts', { turn: 4 }),
        assistantMessage({ turn: 4, step: 1 }, ['Listed.']),
        turnEnd(4),
      ]);
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: host.url,
      });
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${id}`);
      await page.getByText('Listed.').waitFor();
      const clipboard = (): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

      // The latest todo list from the session facts.
      const facts = page.locator('[data-fact="todos"]');
      expect(await facts.locator('summary').textContent()).toContain('todos 1/2');
      await facts.locator('summary').click();
      expect(await facts.locator('li').allTextContents()).toEqual([
        '✓ List the files',
        '▸ Type the module',
      ]);
      await page.screenshot({ path: `${artifacts}session-todos.png` });
      await facts.locator('summary').click();

      // Tab from the filter: one session row (the open one), its menu, and on past the list.
      const rows = await page.locator('.session-row').count();
      expect(rows).toBeGreaterThan(3);
      await page.locator('[data-testid="session-filter"]').focus();
      const stops: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        stops.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            return el?.closest('.conversation')
              ? 'conversation'
              : el?.classList.contains('session-row')
                ? `row:${el.dataset['sessionId']}`
                : (el?.dataset['action'] ?? el?.tagName ?? '');
          }),
        );
        if (stops.at(-1) === 'conversation') break;
      }
      expect(stops.filter((stop) => stop.startsWith('row:'))).toEqual([`row:${id}`]);
      expect(stops).toContain('conversation');
      // Up and Down walk the rows.
      await page.locator(`.session-row[data-session-id="${id}"]`).focus();
      await page.keyboard.press('ArrowDown');
      expect(
        await page.evaluate(() => (document.activeElement as HTMLElement).dataset['sessionId']),
      ).not.toBe(id);

      // Copy a command and a diff from the details.
      const details = page.locator('[data-testid="details"]');
      await page.locator('.dsh-card[data-call-id="ls4"] .dsh-card-main').click();
      await page.keyboard.press('Enter');
      await details.locator('[data-copy="command"]').click();
      expect(await clipboard()).toBe('ls -la src');
      await page.locator('.dsh-card[data-call-id="w2"] .dsh-card-main').click();
      await page.keyboard.press('Enter');
      await details.locator('[data-copy="diff"]').click();
      expect(await clipboard()).toBe(
        '--- a/README.md\n+++ b/README.md\n@@ -1,0 +1,3 @@\n+# Math\n+\n+`add(a, b)`\n',
      );
      expect(errors).toEqual([]);
      await page.close();
    });

    it('reads Markdown: a highlighted code block with its language and copy button, a quote, a table, a task list', async () => {
      const answer = [
        'Here is the fix:',
        '',
        '```ts',
        'export const answer: number = 42;',
        '```',
        '',
        '> Quoted from the docs.',
        '',
        '| file | lines |',
        '| --- | ---: |',
        '| a.ts | 12 |',
        '',
        '- [x] parse',
        '- [ ] test',
      ].join('\n');
      const id = await sessionWith('Markdown reading', [
        userMessage('Show me'),
        turnStart(1),
        assistantMessage({ turn: 1 }, [answer]),
        turnEnd(1),
      ]);
      await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: host.url,
      });
      const { page, errors } = await browser.page();
      await page.goto(`${host.url}/#/s/${id}`);
      const code = page.locator('.markdown .md-code');
      await code.waitFor();
      expect(await code.locator('.md-code-lang').textContent()).toBe('ts');
      // Highlighted: the keyword is a span of its own.
      await code.locator('[class*="keyword"]').first().waitFor();
      await code.locator('[data-copy="code"]').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        'export const answer: number = 42;',
      );
      expect(await page.locator('.markdown blockquote').textContent()).toContain(
        'Quoted from the docs.',
      );
      expect(await page.locator('.markdown table th').allTextContents()).toEqual(['file', 'lines']);
      expect(await page.locator('.markdown li.task.done input[type="checkbox"]').isChecked()).toBe(
        true,
      );
      expect(await page.locator('.markdown li.task:not(.done) input').isChecked()).toBe(false);
      await page.locator('.assistant').screenshot({ path: `${artifacts}markdown-reading.png` });
      expect(errors).toEqual([]);
      await page.close();
    });
  },
);
