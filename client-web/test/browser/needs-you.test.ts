// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the needs-you browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost({ chunkDelayMs: 1 });
  browser = await launchBrowser();
  await browser.context.grantPermissions(['notifications'], { origin: host.url });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/**
 * Records every desktop notification the page shows (the real API still runs) and every
 * tab title, so a title that showed only for a moment is seen too.
 */
function recordNotifications(): void {
  const Real = window.Notification;
  const shown: string[] = [];
  (window as unknown as { shownNotifications: string[] }).shownNotifications = shown;
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      shown.push(`${title} | ${options?.body ?? ''}`);
    }
  }
  Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
  window.Notification = Recorded as typeof Notification;
  const titles: string[] = [];
  (window as unknown as { titles: string[] }).titles = titles;
  new MutationObserver(() => {
    if (titles.at(-1) !== document.title) titles.push(document.title);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

const titlesSoFar = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...(window as unknown as { titles: string[] }).titles]);

describe.skipIf(missing !== undefined)('needs you in Chromium', { timeout: 120_000 }, () => {
  it('marks a waiting session in the list and the tab title, and notifies from the background', async () => {
    const waiting = await host.createSession('Waiting session');
    const other = await host.createSession('Other session');
    const { page, errors } = await browser.page();
    await page.addInitScript(recordNotifications);
    await page.goto(`${host.url}/#/s/${waiting}`);
    await page.waitForSelector('.empty-state');
    expect(await page.locator('[data-testid="notify"]').textContent()).toContain(
      'Desktop notifications are on',
    );
    const input = page.locator('[data-testid="input"]');
    await input.fill('Show me around');
    await input.press('Enter');
    await page.waitForSelector('[data-pending="approval"] [data-action="allow"]');
    const row = page.locator(`.session-row[data-session-id="${waiting}"]`);
    await row.locator('[data-testid="needs-you"]').waitFor();
    await page.waitForFunction(() => document.title.startsWith('(1) Waiting session'));
    // The open session in a visible tab: marked, but no notification.
    expect(
      await page.evaluate(
        () => (window as unknown as { shownNotifications: string[] }).shownNotifications,
      ),
    ).toEqual([]);
    await page.screenshot({ path: `${artifacts}needs-you-open.png` });

    // Leave it waiting, then answer from elsewhere (another client): the demo's next step
    // asks again while the session is in the background.
    await page.click(`.session-row[data-session-id="${other}"]`);
    await page.waitForSelector('.empty-state');
    await answerFromElsewhere(host.url, waiting);
    await page.waitForFunction(
      () => (window as unknown as { shownNotifications: string[] }).shownNotifications.length > 0,
      undefined,
      { timeout: 60_000 },
    );
    const shown = await page.evaluate(
      () => (window as unknown as { shownNotifications: string[] }).shownNotifications,
    );
    expect(shown[0]).toBe('Waiting session needs you | An approval or a question waits for you.');
    await row.locator('[data-testid="needs-you"]').waitFor();
    expect(await page.title()).toBe('(1) Other session · dsh');
    expect(
      await page
        .locator(`.session-row[data-session-id="${other}"] [data-testid="needs-you"]`)
        .count(),
    ).toBe(0);
    await page.screenshot({ path: `${artifacts}needs-you-background.png` });

    // Opening it keeps the count: the summary's until the session's own window has loaded.
    const before = (await titlesSoFar(page)).length;
    await row.click();
    await page.waitForSelector('[data-pending="approval"] [data-action="deny"]');
    expect((await titlesSoFar(page)).slice(before)).toEqual(['(1) Waiting session · dsh']);
    // Denied: the demo's next step asks again (one approval, not two), and a Stop leaves
    // nothing waiting, so the mark and the count go.
    await page.click('[data-pending="approval"] [data-action="deny"]');
    await page.getByText('A persistent shell keeps its state').waitFor({ timeout: 30_000 });
    await page.waitForSelector('[data-pending="approval"] [data-action="deny"]');
    await page.waitForFunction(() => document.title === '(1) Waiting session · dsh');
    await page.click('[data-action="stop"]');
    await page.waitForFunction(() => document.title === 'Waiting session · dsh', undefined, {
      timeout: 30_000,
    });
    await row.locator('[data-testid="needs-you"]').waitFor({ state: 'detached' });
    expect(await page.locator('[data-pending="approval"] [data-action="deny"]').count()).toBe(0);
    // One notification in all: the approval asked while the session was in the background
    // (not the one the person saw before leaving it, nor the one asked while open).
    expect(
      await page.evaluate(
        () => (window as unknown as { shownNotifications: string[] }).shownNotifications,
      ),
    ).toEqual(['Waiting session needs you | An approval or a question waits for you.']);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** Allows the session's pending approval over Connect JSON, as a second client would. */
async function answerFromElsewhere(url: string, sessionId: string): Promise<void> {
  const call = async (method: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${url}/dsh.session.v1.SessionService/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  const page = (await call('Page', { sessionId, maxMessages: 1 })) as {
    events?: { event?: { approvalRequested?: { approvalId: string } } }[];
  };
  const approvalId = page.events
    ?.map((entry) => entry.event?.approvalRequested?.approvalId)
    .findLast((id) => id !== undefined);
  if (approvalId === undefined) throw new Error('no approval waits in the tail page');
  await call('Respond', {
    sessionId,
    approval: { approvalId, decision: 'APPROVAL_DECISION_ALLOW' },
  });
}
