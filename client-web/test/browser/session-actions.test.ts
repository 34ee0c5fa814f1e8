// @vitest-environment node
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the session-action browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

const rowOf = (id: string): string => `.row-item[data-row-id="${id}"]`;

describe.skipIf(missing !== undefined)('session actions in Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    host = await startWebHost();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });
  afterEach(async () => {
    for (const page of browser?.context.pages() ?? []) await page.close();
  });

  it('"+ New" asks for a working directory, a title and shows the model; a bad folder is refused in the dialog', async () => {
    const open = await host.createSession('Open while creating');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${open}`);
    await page.waitForSelector('.empty-state');
    await page.click('[data-action="create"]');
    const dialog = page.locator('[data-testid="new-session"]');
    await dialog.waitFor();
    expect(await page.inputValue('[data-testid="new-cwd"]')).toBe(host.dir);
    expect(await dialog.locator('[data-testid="new-model-fact"]').textContent()).toContain('demo');
    await page.fill('[data-testid="new-cwd"]', join(host.dir, 'no-such-folder'));
    await page.fill('[data-testid="new-title"]', 'Made in the dialog');
    await page.click('[data-action="create-session"]');
    const refused = await dialog.locator('[data-testid="dialog-error"]').textContent();
    expect(refused).toContain('Not created:');
    expect(refused).toContain('no-such-folder');
    await page.screenshot({ path: `${artifacts}new-session-refused.png` });

    const cwd = join(host.dir, 'dialog-work');
    await mkdir(cwd);
    await page.fill('[data-testid="new-cwd"]', cwd);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction((before) => !window.location.hash.endsWith(before), open);
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#/s/', ''));
    await page.waitForSelector(`.topbar .title-text:text("Made in the dialog")`);
    expect(await page.textContent('.topbar .cwd')).toBe(cwd);
    // A root session, not a child of the session that was open.
    const style = await page.getAttribute(`.session-row[data-session-id="${id}"]`, 'style');
    expect(style).toContain('padding-left: 10px');
    expect(
      await page.locator(`.session-row[data-session-id="${id}"] .row-title`).textContent(),
    ).not.toContain('↳');
    await page.screenshot({ path: `${artifacts}new-session-created.png` });

    // Esc closes the dialog without creating anything; `n` opens it from the keyboard.
    await page.locator('[data-testid="conversation"]').click();
    await page.keyboard.press('n');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('renames from the row menu and with F2; the list and the top bar follow', async () => {
    const id = await host.createSession('Before the rename');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const row = page.locator(rowOf(id));
    await row.locator('[data-action="session-menu"]').click();
    await page.screenshot({ path: `${artifacts}session-menu.png` });
    await row.locator('[data-action="rename"]').click();
    const field = row.locator('[data-testid="rename-input"]');
    expect(await field.inputValue()).toBe('Before the rename');
    await field.fill('After the rename');
    await field.press('Enter');
    await page.waitForSelector(`.topbar .title-text:text("After the rename")`);
    await row.locator('.row-title:text("After the rename")').waitFor();
    await page.waitForFunction(() => document.title === 'After the rename · dsh');

    await page.locator('[data-testid="conversation"]').click();
    await page.keyboard.press('F2');
    await field.waitFor();
    await field.fill('Renamed by key');
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    expect(await page.textContent('.topbar .title-text')).toBe('After the rename');
    await page.keyboard.press('F2');
    await field.fill('Renamed by key');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.topbar .title-text:text("Renamed by key")`);
    expect(errors).toEqual([]);
  });

  it('archives out of the list, shows archived sessions on request and unarchives', async () => {
    const id = await host.createSession('To be archived');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/`);
    const row = page.locator(rowOf(id));
    await row.waitFor();
    await row.locator('[data-action="session-menu"]').click();
    await row.locator('[data-action="archive"]').click();
    await row.waitFor({ state: 'detached' });
    expect(await page.textContent('[data-testid="list-notice"]')).toContain(
      'Archived “To be archived”',
    );
    const toggle = page.locator('[data-action="toggle-archived"]');
    expect(await toggle.textContent()).toContain('Archived (1)');
    await toggle.click();
    await row.locator('[data-testid="archived-mark"]').waitFor();
    await page.screenshot({ path: `${artifacts}session-archived.png` });
    await row.locator('[data-action="session-menu"]').click();
    expect(await row.locator('[data-action="archive"]').textContent()).toContain('Unarchive');
    await row.locator('[data-action="archive"]').click();
    await row.locator('[data-testid="archived-mark"]').waitFor({ state: 'detached' });
    await toggle.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('deletes after a confirmation naming the session: the host moves it to its trash', async () => {
    const id = await host.createSession('Doomed session');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const row = page.locator(rowOf(id));
    const dialog = page.locator('[data-testid="confirm-delete"]');
    await row.locator('[data-action="session-menu"]').click();
    await row.locator('[data-action="delete"]').click();
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Delete “Doomed session”?');
    await page.screenshot({ path: `${artifacts}session-delete-confirm.png` });
    await dialog.locator('[data-action="cancel"]').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);

    await row.locator('[data-action="session-menu"]').click();
    await row.locator('[data-action="delete"]').click();
    await dialog.locator('[data-action="confirm-delete"]').click();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    const notice = (await page.textContent('[data-testid="list-notice"]')) ?? '';
    expect(notice).toContain('Moved “Doomed session” to the trash: ');
    const trash = notice.slice(notice.indexOf(': ') + 2).trim();
    expect(trash.startsWith(join(host.dir, 'sessions'))).toBe(true);
    expect(existsSync(join(trash, `${id}.jsonl`))).toBe(true);
    // It was open: the page goes back to the welcome view.
    await page.waitForSelector('.welcome h1:text("dsh")');
    expect(new URL(page.url()).hash).toBe('#/');
    await page.screenshot({ path: `${artifacts}session-deleted.png` });
    expect(errors).toEqual([]);
  });

  it('offers no actions on a fixture, groups by working directory and lists the keys in the ? overlay', async () => {
    const { page } = await browser.page();
    await page.goto(`${host.url}/#/`);
    await page.waitForSelector(rowOf('long-paging'));
    expect(await page.locator(`${rowOf('long-paging')} [data-action="session-menu"]`).count()).toBe(
      0,
    );
    await page.click('[data-action="toggle-grouped"]');
    const heads = await page.locator('[data-testid="group-head"]').allTextContents();
    expect(heads.map((head) => head.trim())).toContain('project');
    await page.screenshot({ path: `${artifacts}session-groups.png` });
    await page.click('[data-action="toggle-grouped"]');
    await page.locator('[data-testid="group-head"]').first().waitFor({ state: 'detached' });
    await page.keyboard.press('?');
    const overlay = (await page.textContent('[data-testid="keys-overlay"]')) ?? '';
    expect(overlay).toContain('New session');
    expect(overlay).toContain('Rename the open session');
  });

  it('/ opens the session search outside a text field, types a slash inside one; i focuses the message', async () => {
    const { page, errors } = await browser.page(1280, 800);
    const id = await host.createSession('Slash session');
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    await page.locator('[data-testid="conversation"]').click();
    await page.keyboard.press('/');
    const search = page.locator('[data-testid="search-input"]');
    await search.waitFor();
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.getAttribute('placeholder')).toBe('Search this session');
    expect(await search.inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });

    await page.keyboard.press('i');
    const message = page.locator('[data-testid="input"]');
    expect(await message.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('a/b');
    expect(await message.inputValue()).toBe('a/b');
    expect(await search.count()).toBe(0);

    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const keys = (await page.textContent('[data-testid="keys-overlay"]')) ?? '';
    expect(keys).toContain('Search this session (every session when none is open)');
    expect(keys).toContain('Focus the message');
    expect(errors).toEqual([]);
  });
});
