// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the phone layout browser tests: ${missing}`);

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

describe.skipIf(missing !== undefined)('a 390 px phone screen', { timeout: 90_000 }, () => {
  it('fits the width, keeps the controls reachable and touch-sized', async () => {
    const { page, errors } = await browser.page(390, 844);
    await page.goto(`${host.url}/#/s/showcase`);
    await page.waitForSelector('.conversation [data-seq]');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${artifacts}phone-conversation.png` });
    // Every control of the top bar and the input row is at least 40 px tall and on screen.
    const targets = await page.$$eval(
      '.topbar button, .topbar summary, .input-row button, .input-row textarea',
      (els) =>
        els.map((el) => {
          const box = el.getBoundingClientRect();
          return {
            what: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName,
            height: box.height,
            right: box.right,
          };
        }),
    );
    for (const target of targets) {
      expect(target.height, target.what).toBeGreaterThanOrEqual(40);
      expect(target.right, target.what).toBeLessThanOrEqual(390);
    }
    await page.click('[aria-label="Toggle the session list"]');
    await page.waitForSelector('.app.sidebar-open');
    await page.screenshot({ path: `${artifacts}phone-sessions.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
