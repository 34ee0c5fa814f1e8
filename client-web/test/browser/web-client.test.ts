// @vitest-environment node
import { assistantMessage, turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Seqs of the rendered conversation nodes, in order. */
async function seqs(page: Page): Promise<number[]> {
  return page.$$eval('.conversation [data-seq]', (nodes) =>
    nodes.map((node) => Number((node as HTMLElement).dataset['seq'])),
  );
}

/** The first node visible in the conversation and its distance from the scroller's top. */
async function firstVisible(page: Page): Promise<{ seq: string; offset: number }> {
  return page.$eval('.conversation', (scroller) => {
    const top = scroller.getBoundingClientRect().top;
    const node = [...scroller.querySelectorAll<HTMLElement>('[data-seq]')].find(
      (el) => el.getBoundingClientRect().bottom > top,
    );
    if (node === undefined) throw new Error('no visible node');
    return { seq: node.dataset['seq'] ?? '', offset: node.getBoundingClientRect().top - top };
  });
}

async function openSession(page: Page, id: string): Promise<void> {
  await page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
  await page.waitForSelector('.conversation [data-seq]');
}

function turn(n: number, text: string) {
  return [
    turnStart(n),
    userMessage(`question ${n}`),
    assistantMessage({ turn: n }, [text]),
    turnEnd(n),
  ];
}

describe.skipIf(missing !== undefined)('web client in Chromium', { timeout: 60_000 }, () => {
  it('opens a fixture session and loads older pages with the viewport anchored', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'long-paging');
    await page.waitForSelector('.session-row.selected');
    const loaded = () =>
      page.$eval('.conversation', (el) => Number((el as HTMLElement).dataset['nodes']));
    const before = await loaded();
    await page.$eval('.conversation', (el) => (el.scrollTop = 0));
    await page.waitForTimeout(100);
    const anchor = await firstVisible(page);
    await page.click('[data-action="load-older"]');
    await page.waitForFunction(
      (n) => Number(document.querySelector<HTMLElement>('.conversation')?.dataset['nodes']) > n,
      before,
    );
    await page.waitForTimeout(300);
    // Only the rows near the viewport are rendered; they are in order, each once.
    const after = await seqs(page);
    expect(after).toEqual([...after].sort((a, b) => a - b));
    expect(new Set(after).size).toBe(after.length);
    expect(after).toContain(Number(anchor.seq));
    const moved = await page.$eval(
      '.conversation',
      (scroller, seq) => {
        const node = scroller.querySelector<HTMLElement>(`[data-seq="${seq}"]`);
        return (node?.getBoundingClientRect().top ?? NaN) - scroller.getBoundingClientRect().top;
      },
      anchor.seq,
    );
    expect(Math.abs(moved - anchor.offset)).toBeLessThan(2);
    await page.screenshot({ path: `${artifacts}long-paging.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the DOM bounded by the viewport however many older pages are loaded', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'long-paging');
    const loaded = () =>
      page.$eval('.conversation', (el) => Number((el as HTMLElement).dataset['nodes']));
    const elements = () => page.$eval('.conversation', (el) => el.querySelectorAll('*').length);
    const first = await elements();
    for (let pages = 0; pages < 6; pages++) {
      const button = page.locator('[data-action="load-older"]');
      if ((await button.count()) === 0) break;
      const count = await loaded();
      await page.$eval('.conversation', (el) => (el.scrollTop = 0));
      await button.click();
      await page.waitForFunction(
        (n) => Number(document.querySelector<HTMLElement>('.conversation')?.dataset['nodes']) > n,
        count,
      );
    }
    await page.waitForTimeout(200);
    const nodes = await loaded();
    const rendered = (await seqs(page)).length;
    expect(nodes).toBeGreaterThan(rendered * 2);
    expect(await elements()).toBeLessThan(Math.max(first * 3, 2_000));
    // Scrolling to the bottom renders the newest rows again, in order.
    await page.$eval('.conversation', (el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(200);
    const bottom = await seqs(page);
    expect(bottom).toEqual([...bottom].sort((a, b) => a - b));
    expect(await page.locator('.conversation .node').last().isVisible()).toBe(true);
    await page.screenshot({ path: `${artifacts}long-paging-bottom.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('follows events the host appends, at the bottom', async () => {
    const id = await host.createSession('Live follow');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const journal = await host.journal(id);
    for (let n = 1; n <= 12; n += 1)
      await journal.append(turn(n, `Answer **${n}** from the host.`));
    await page.waitForFunction(() =>
      document.body.textContent?.includes('Answer 12 from the host.'),
    );
    const atBottom = await page.$eval(
      '.conversation',
      (el) => el.scrollHeight - el.scrollTop - el.clientHeight < 48,
    );
    expect(atBottom).toBe(true);
    expect(await page.locator('.markdown strong', { hasText: '12' }).count()).toBe(1);
    await page.screenshot({ path: `${artifacts}live-follow.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sends, answers approvals, steers and stops against the demo agent', async () => {
    const id = await host.createSession('Agent session');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const input = page.locator('[data-testid="input"]');
    await input.fill('Show me around');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');
    await page.waitForSelector('.bubble.user');
    await page.waitForSelector('[data-pending="approval"]');
    await page.screenshot({ path: `${artifacts}approval.png` });
    await page.click('[data-pending="approval"] [data-action="allow"]');
    await page.waitForSelector('.dsh-card[data-tool="bash"][data-state="ok"]');
    await page.waitForSelector('[data-pending="approval"]');
    await input.fill('Please hurry');
    await page.click('[data-action="steer"]');
    expect(await input.inputValue()).toBe('');
    await page.click('[data-pending="approval"] [data-action="allow"]');
    await page.waitForSelector('.bubble.steering');
    await page.waitForSelector('[data-action="stop"]');
    await page.click('[data-action="stop"]');
    await page.waitForSelector('.turn-end.marked');
    await page.waitForSelector('[data-action="stop"]', { state: 'detached' });
    await page.screenshot({ path: `${artifacts}agent-stopped.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offers no buttons for an approval that no running turn waits for', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'approvals');
    const card = page.locator('[data-pending="approval"]');
    await card.waitFor();
    expect(await card.locator('[data-state="unanswered"]').textContent()).toBe(
      'Not answered: the turn that asked is no longer running.',
    );
    expect(await card.locator('button').count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}approval-unanswered.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the draft when sending fails, per session', async () => {
    const { page } = await browser.page();
    const id = await host.createSession('Draft session');
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const input = page.locator('[data-testid="input"]');
    await input.fill('kept for later');
    await openSession(page, 'approvals');
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    expect(await input.inputValue()).toBe('kept for later');
    await host.stop();
    await input.press('Enter');
    await page.waitForSelector('.input-error');
    expect(await input.inputValue()).toBe('kept for later');
    await host.start();
    await page.close();
  });

  it('keeps drafts across a reload and walks the sent messages with Up and Down', async () => {
    const { page, errors } = await browser.page();
    const id = await host.createSession('Input memory');
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const input = page.locator('[data-testid="input"]');
    await input.fill('a draft that survives');
    await page.waitForTimeout(400);
    await page.reload();
    await page.waitForSelector('.empty-state');
    expect(await input.inputValue()).toBe('a draft that survives');
    await input.fill('first message');
    await input.press('Enter');
    await page.waitForFunction(() => document.body.textContent?.includes('first message'));
    await input.fill('second message');
    await input.press('Enter');
    // History keeps what the host took: wait for the answer to the Prompt to be remembered.
    await page.waitForFunction(() =>
      (localStorage.getItem('dsh-input-history') ?? '').includes('second message'),
    );
    await page.reload();
    await page.waitForSelector('.conversation [data-seq]');
    await input.focus();
    const walk = async (key: string) => {
      await input.press(key);
      return input.inputValue();
    };
    expect(await walk('ArrowUp')).toBe('second message');
    expect(await walk('ArrowUp')).toBe('first message');
    expect(await walk('ArrowDown')).toBe('second message');
    await page.screenshot({ path: `${artifacts}input-history.png` });
    expect(await walk('ArrowDown')).toBe('');
    await input.fill('typed');
    expect(await walk('ArrowUp')).toBe('typed');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('filters the session list by title, id or folder', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/`);
    await page.waitForSelector('.session-row');
    const all = await page.locator('.session-row').count();
    const filter = page.locator('[data-testid="session-filter"]');
    await filter.fill('PAGING long');
    await page.waitForFunction(() => document.querySelectorAll('.session-row').length === 1);
    expect(await page.locator('.session-row').first().getAttribute('data-session-id')).toBe(
      'long-paging',
    );
    await page.screenshot({ path: `${artifacts}session-filter.png` });
    await filter.fill('no such session anywhere');
    await page.waitForSelector('[data-testid="list-note"]');
    expect(await page.locator('[data-testid="list-note"]').textContent()).toContain(
      'No session matches “no such session anywhere”',
    );
    await filter.press('Escape');
    expect(await filter.inputValue()).toBe('');
    expect(await page.locator('.session-row').count()).toBe(all);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists every key in the ? overlay and closes it with Esc', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'showcase');
    await page.locator('.conversation').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const overlay = page.locator('[data-testid="keys-overlay"]');
    await overlay.waitFor();
    const text = (await overlay.textContent()) ?? '';
    for (const does of ['Next / previous card', 'Focus the message', 'earlier / later sent'])
      expect(text).toContain(does);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Close',
    );
    await page.screenshot({ path: `${artifacts}keys-overlay.png` });
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    // Typed into a text field, ? is a character, not the overlay.
    const filter = page.locator('[data-testid="session-filter"]');
    await filter.focus();
    await page.keyboard.press('?');
    expect(await filter.inputValue()).toBe('?');
    expect(await overlay.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the disconnect banner and resyncs after a host restart without duplicates', async () => {
    const id = await host.createSession('Restart');
    const journal = await host.journal(id);
    await journal.append(turn(1, 'Before the restart.'));
    const { page, errors } = await browser.page();
    await openSession(page, id);
    await host.stop();
    await page.waitForSelector('[data-testid="banner"]');
    await page.screenshot({ path: `${artifacts}disconnected.png` });
    await host.start();
    await (await host.journal(id)).append(turn(2, 'After the restart.'));
    await page.waitForFunction(() => document.body.textContent?.includes('After the restart.'));
    await page.waitForSelector('[data-testid="banner"]', { state: 'detached', timeout: 15_000 });
    expect(await seqs(page)).toEqual([1, 2, 3, 5, 6, 7]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders hostile tool output inert and keeps the layout', async () => {
    const { page, errors, dialogs } = await browser.page();
    await openSession(page, 'hostile-output');
    await page.waitForTimeout(300);
    const active = await page.$$eval('.conversation *', (elements) =>
      elements.flatMap((el) => {
        const found: string[] = [];
        const tag = el.tagName.toLowerCase();
        if (['script', 'iframe', 'object', 'embed', 'img'].includes(tag)) found.push(`<${tag}>`);
        for (const attr of el.getAttributeNames()) {
          const value = el.getAttribute(attr) ?? '';
          if (attr.startsWith('on')) found.push(`${tag}[${attr}]`);
          if (attr === 'href' && !/^https?:\/\//i.test(value)) found.push(`${tag}[href=${value}]`);
        }
        return found;
      }),
    );
    expect(active).toEqual([]);
    expect(dialogs).toEqual([]);
    // Only the app names the tab (the session's title); no escape in the output did.
    expect(await page.title()).toBe('Hostile output · dsh');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}hostile-output.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens details with the keyboard, shows the trajectory, and fits 400 px in dark', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'showcase');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="details"] .dsh-card[data-mode="details"]');
    await page.screenshot({ path: `${artifacts}details.png` });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="details"]', { state: 'detached' });
    await page.click('[data-action="trajectory"]');
    await page.waitForSelector('.wf-call');
    await page.screenshot({ path: `${artifacts}trajectory.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 400, height: 760 });
    await page.reload();
    await page.waitForSelector('.conversation [data-seq]');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}narrow-dark.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens the file view of a deliverable chip: the latest call that touched the path', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'showcase');
    const chip = page.locator('.deliverables .chip', { hasText: 'src/utils/slugify.ts' });
    // The conversation renders only the rows near the viewport: scroll up to the chip.
    for (let i = 0; i < 100 && (await chip.count()) === 0; i++) {
      await page.$eval('.conversation', (el) => (el.scrollTop -= el.clientHeight));
      await page.waitForTimeout(50);
    }
    await chip.first().scrollIntoViewIfNeeded();
    await chip.first().click();
    const details = page.locator('[data-testid="details"] .dsh-card[data-mode="details"]');
    await details.waitFor();
    expect(await details.locator('[data-field="path"]').first().textContent()).toContain(
      'src/utils/slugify.ts',
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
