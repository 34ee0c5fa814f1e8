// @vitest-environment node
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
  host = await startWebHost({ chunkDelayMs: 1 });
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
  },
);
