// @vitest-environment node
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}

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

/** Opens a new demo session and starts a turn that waits on its first approval. */
async function runningSession(title: string): Promise<{ page: Page; errors: string[] }> {
  const id = await host.createSession(title);
  const { page, errors } = await browser.page();
  await page.goto(`${host.url}/#/s/${id}`);
  await page.waitForSelector('.empty-state');
  const input = page.locator('[data-testid="input"]');
  await input.fill('Show me around');
  await input.press('Enter');
  await page.waitForSelector('[data-pending="approval"]');
  return { page, errors };
}

async function queueTexts(page: Page): Promise<string[]> {
  return page.$$eval('.queue-item .queue-text', (items) => items.map((i) => i.textContent ?? ''));
}

describe.skipIf(missing !== undefined)('the visible queue in Chromium', { timeout: 60_000 }, () => {
  it('shows queued input in order, edits and removes it, and Stop offers it back', async () => {
    const { page, errors } = await runningSession('Queue');
    const input = page.locator('[data-testid="input"]');
    // Each Prompt takes a while on the wire, so every Enter comes while one is on its way.
    const prompts = '**/dsh.session.v1.SessionService/Prompt';
    await page.route(prompts, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    for (const text of ['second message', 'third message', 'fourth message']) {
      await input.fill(text);
      await input.press('Enter');
    }
    await page.waitForFunction(() => document.querySelectorAll('.queue-item').length === 3);
    await page.unroute(prompts);
    expect(await queueTexts(page)).toEqual(['second message', 'third message', 'fourth message']);
    await page.click('.queue-item:nth-child(1) [data-action="edit-queued"]');
    await page.fill('.queue-editor', 'second, edited');
    await page.press('.queue-editor', 'Enter');
    await page.waitForFunction(() =>
      document.querySelector('.queue-item .queue-text')?.textContent?.includes('edited'),
    );
    await page.click('.queue-item:nth-child(2) [data-action="remove-queued"]');
    await page.waitForFunction(() => document.querySelectorAll('.queue-item').length === 2);
    expect(await queueTexts(page)).toEqual(['second, edited', 'fourth message']);
    await page.screenshot({ path: `${artifacts}queue.png` });

    await input.fill('typed meanwhile');
    await page.click('[data-action="stop"]');
    await page.waitForSelector('[data-testid="queue-cleared"]');
    expect(await page.textContent('[data-testid="queue-cleared"]')).toContain(
      'Stop cleared 2 queued messages.',
    );
    expect(await page.$$('.queue-item')).toHaveLength(0);
    await page.screenshot({ path: `${artifacts}queue-cleared.png` });
    await page.click('[data-action="restore-queue"]');
    expect(await input.inputValue()).toBe('second, edited\n\nfourth message\n\ntyped meanwhile');
    expect(await page.$('[data-testid="queue-cleared"]')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the queue across a host crash and runs it after the restart', async () => {
    const { page, errors } = await runningSession('Queue restart');
    const input = page.locator('[data-testid="input"]');
    await input.fill('run me after the restart');
    await input.press('Enter');
    await page.waitForSelector('.queue-item');
    await host.kill();
    await page.waitForSelector('[data-testid="banner"]');
    // Still shown while the host is down: the queue is the journal's, not the page's.
    expect(await queueTexts(page)).toEqual(['run me after the restart']);
    await host.start();
    await page.waitForSelector('.bubble.user >> text=run me after the restart', {
      timeout: 20_000,
    });
    await page.waitForFunction(() => document.querySelectorAll('.queue-item').length === 0);
    const labels = await page.$$eval('.bubble.user .bubble-label', (els) =>
      els.map((el) => el.textContent ?? ''),
    );
    expect(labels.at(-1)).toBe('You · queued');
    await page.screenshot({ path: `${artifacts}queue-after-restart.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
