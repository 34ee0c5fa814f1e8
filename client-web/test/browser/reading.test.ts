// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the reading browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost({ chunkDelayMs: 1 });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

describe.skipIf(missing !== undefined)('reading in Chromium', { timeout: 90_000 }, () => {
  it('marks the words that changed in a diff, on both sides', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/diff-edit`);
    await page.locator('.dsh-card[data-tool="edit"]').first().waitFor();
    const card = page
      .locator('.dsh-card[data-tool="edit"]', { has: page.locator('.dsh-word-removed') })
      .first();
    await card.waitFor();
    expect(await card.locator('.dsh-word-removed').allTextContents()).toContain('legacyHandle');
    expect(await card.locator('.dsh-word-added').allTextContents()).toContain('handle');
    // The unchanged rest of a paired row is plain, and the row keeps its +/- colour.
    const row = card.locator('tr.dsh-diff-added', { has: page.locator('.dsh-word-added') }).first();
    expect(await row.locator('.dsh-src').textContent()).toContain('return handle(req);');
    const colours = await card
      .locator('.dsh-word-added')
      .first()
      .evaluate((el) => [
        getComputedStyle(el).backgroundColor,
        getComputedStyle(el.closest('tr')!).backgroundColor,
      ]);
    expect(colours[0]).not.toBe(colours[1]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${artifacts}diff-words.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
