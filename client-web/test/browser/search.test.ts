// @vitest-environment node
import { join } from 'node:path';
import { ripgrepAbsent, writeNeedleJournal } from '@dsh/journal-file/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the browser search tests: ${missing}`);
const noRipgrep = ripgrepAbsent('the browser search tests');

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

describe.skipIf(missing !== undefined || noRipgrep)('search in the web client', () => {
  beforeAll(async () => {
    host = await startWebHost();
    await writeNeedleJournal(join(host.dir, 'sessions', 'million.jsonl'), {
      sessionId: 'million',
      events: 1_000_000,
      needleSeq: 100_000,
      needle: 'the flux capacitor needs 1.21 gigawatts',
    });
    await writeNeedleJournal(join(host.dir, 'sessions', 'pair.jsonl'), {
      sessionId: 'pair',
      events: 200_000,
      needleSeq: 1_000,
      needle: 'the warp coil hums at dawn',
      moreNeedles: [{ seq: 199_001, text: 'the warp coil hums at dusk' }],
    });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });
  afterEach(async () => {
    for (const page of browser?.context.pages() ?? []) await page.close();
  });

  it('Ctrl+F finds a prompt 900,000 events back, pages to it, scrolls it into view and highlights it', async () => {
    const { page, errors } = await browser.page(1280, 800);
    await page.goto(`${host.url}/#/s/million`);
    await page.waitForSelector('text=nothing changed', { timeout: 60_000 });
    await page.keyboard.press('Control+f');
    await page.fill('[data-testid="search-input"]', 'capacitor');
    await page.keyboard.press('Enter');
    const target = await page.waitForSelector('.search-target', { timeout: 60_000 });
    expect(await target.textContent()).toContain('the flux capacitor needs 1.21 gigawatts');
    expect(await target.isVisible()).toBe(true);
    expect(await page.textContent('[data-testid="search-count"]')).toBe('1 of 1');
    const hits = await page.innerHTML('[data-testid="search-hits"]');
    expect(hits.replace(/<!--.*?-->/g, '').replace(/ data-v-[a-z0-9]+=""/g, '')).toMatchSnapshot();
    expect(await page.textContent('[data-testid="search-hits"] mark')).toBe('capacitor');
    // The history bar sits above the conversation, over none of its lines.
    await page.click('[aria-label="Close search"]');
    await page.waitForSelector('[data-testid="search-panel"]', { state: 'detached' });
    // Each row's visible part starts at or below the bar's bottom edge (the conversation
    // clips a row scrolled half out at its own top).
    const layout = await page.evaluate(() => {
      const note = document.querySelector('[data-testid="history-note"]')?.getBoundingClientRect();
      const scroller = document.querySelector('[data-testid="conversation"]');
      const view = scroller?.getBoundingClientRect();
      if (note === undefined || view === undefined) return undefined;
      const tops = [...scroller!.querySelectorAll('.node')]
        .map((row) => row.getBoundingClientRect())
        .filter((box) => box.height > 0 && box.bottom > view.top && box.top < view.bottom)
        .map((box) => Math.max(box.top, view.top));
      return { noteBottom: note.bottom, viewTop: view.top, tops };
    });
    expect(layout).toBeDefined();
    expect(layout?.tops.length).toBeGreaterThan(0);
    for (const top of [layout?.viewTop ?? 0, ...(layout?.tops ?? [])]) {
      expect(layout?.noteBottom).toBeLessThanOrEqual(top + 0.5);
    }
    await page.screenshot({ path: `${artifacts}history-note.png` });
    await page.click('[data-action="back-to-live"]');
    await page.waitForSelector('[data-testid="history-note"]', { state: 'detached' });
    await page.waitForSelector('[data-testid="conversation"] >> text=nothing changed');
    expect(await page.isVisible('[data-testid="conversation"] >> text=the flux capacitor')).toBe(
      false,
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it('Ctrl+K searches every session and names the session of each hit', async () => {
    const { page } = await browser.page(1280, 800);
    await page.goto(`${host.url}/`);
    await page.waitForSelector('[data-testid="session-filter"]', { timeout: 60_000 });
    await page.keyboard.press('Control+k');
    await page.fill('[data-testid="search-input"]', 'gigawatts');
    const hit = await page.waitForSelector('[data-testid="search-hits"] li[data-seq="100000"]', {
      timeout: 60_000,
    });
    expect(await hit.textContent()).toContain('needle session');
    await hit.click();
    const target = await page.waitForSelector('.search-target', { timeout: 60_000 });
    expect(await target.textContent()).toContain('flux capacitor');
  }, 120_000);

  it('/ opens the search; Enter, Shift+Enter and the arrows go to the next and previous hit, each paged in', async () => {
    const { page, errors } = await browser.page(1280, 800);
    await page.goto(`${host.url}/#/s/pair`);
    await page.waitForSelector('text=nothing changed', { timeout: 60_000 });
    await page.keyboard.press('/');
    const input = page.locator('[data-testid="search-input"]');
    await input.waitFor();
    expect(await input.getAttribute('placeholder')).toBe('Search this session');
    await input.fill('warp coil');
    await input.press('Enter');
    const count = page.locator('[data-testid="search-count"]');
    const shown = async (text: string, position: string): Promise<void> => {
      await page.waitForFunction(
        ([want, at]) =>
          document.querySelector('[data-testid="search-count"]')?.textContent === at &&
          (document.querySelector('.search-target')?.textContent ?? '').includes(want!),
        [text, position],
        { timeout: 60_000 },
      );
      expect(await page.locator('.search-target').isVisible()).toBe(true);
    };
    await shown('hums at dawn', '1 of 2');
    expect(
      await page.locator('[data-testid="search-hits"] li.selected').getAttribute('data-seq'),
    ).toBe('1000');
    await input.press('Enter');
    await shown('hums at dusk', '2 of 2');
    expect(await page.isVisible('[data-testid="conversation"] >> text=hums at dawn')).toBe(false);
    await input.press('Shift+Enter');
    await shown('hums at dawn', '1 of 2');
    await page.click('[aria-label="Next hit"]');
    await shown('hums at dusk', '2 of 2');
    await page.click('[aria-label="Previous hit"]');
    await shown('hums at dawn', '1 of 2');
    expect(await count.textContent()).toBe('1 of 2');
    // Cmd+K (Meta) opens the search of every session as Ctrl+K does.
    await input.press('Escape');
    await page.keyboard.press('Meta+k');
    expect(await input.getAttribute('placeholder')).toBe('Search every session');
    expect(errors).toEqual([]);
  }, 120_000);
});
