import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; the browser tests never download one. */
export const chromiumPath = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  return `${chromiumPath} is missing: install Debian's package with "apt-get install -y chromium"`;
}

/** Where screenshots go (gitignored). */
export const artifacts = new URL('../../../test-artifacts/web/', import.meta.url).pathname;

/** Launches headless Chromium with a fresh profile; `page()` opens a tab that records errors. */
export async function launchBrowser(): Promise<{
  context: BrowserContext;
  page(
    width?: number,
    height?: number,
  ): Promise<{ page: Page; errors: string[]; dialogs: string[] }>;
  close(): Promise<void>;
}> {
  await mkdir(artifacts, { recursive: true });
  const profile = await mkdtemp(join(tmpdir(), 'dsh-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    async page(width = 1280, height = 800) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      const errors: string[] = [];
      const dialogs: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      return { page, errors, dialogs };
    },
    close: () => context.close(),
  };
}
