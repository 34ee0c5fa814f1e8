// @vitest-environment node
import {
  assistantMessage,
  contextCompaction,
  turnEnd,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the compaction browser tests: ${missing}`);

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

function turn(n: number, text: string) {
  return [
    turnStart(n),
    userMessage(`question ${n}`),
    assistantMessage({ turn: n }, [text]),
    turnEnd(n),
  ];
}

async function seqs(page: Page): Promise<number[]> {
  return page.$$eval('.conversation [data-seq]', (nodes) =>
    nodes.map((node) => Number((node as HTMLElement).dataset['seq'])),
  );
}

describe.skipIf(missing !== undefined)('compaction in Chromium', { timeout: 90_000 }, () => {
  it('draws a fixture compaction as a divider whose summary expands', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/compaction`);
    const dividers = page.locator('.compaction[role="separator"]');
    await dividers.first().waitFor();
    expect(await dividers.count()).toBe(2);
    const first = dividers.first();
    expect(await first.locator('.compaction-tokens').textContent()).toBe(
      '7,412 → 2,980 tokens (budget 6,000)',
    );
    const summary = first.locator('.compaction-summary .markdown');
    expect(await summary.isVisible()).toBe(false);
    await first.locator('summary').click();
    await summary.waitFor({ state: 'visible' });
    expect(await summary.textContent()).toContain('read PORT from the environment');
    // The events the compaction replaced are still drawn above it.
    expect(await page.locator('.bubble.user', { hasText: 'Find the TODOs in src.' }).count()).toBe(
      1,
    );
    await first.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}compaction-divider.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pages across a compaction like anywhere else', async () => {
    const id = await host.createSession('Long compacted');
    const journal = await host.journal(id);
    for (let n = 1; n <= 40; n += 1) await journal.append(turn(n, `Before ${n}.`));
    const at = journal.length;
    await journal.append([
      contextCompaction('Forty turns of questions, answered.', at, { turn: 40 }),
    ]);
    for (let n = 41; n <= 80; n += 1) await journal.append(turn(n, `After ${n}.`));
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
    await page.waitForSelector('.conversation [data-seq]');
    const older = page.locator('[data-action="load-older"]');
    // The list is virtualised: the conversation's data-nodes counts what is loaded.
    const loaded = () =>
      page.$eval('.conversation', (el) => Number((el as HTMLElement).dataset['nodes']));
    for (let i = 0; i < 20 && (await older.count()) > 0; i += 1) {
      const before = await loaded();
      await page.$eval('.conversation', (el) => (el.scrollTop = 0));
      await older.click();
      await page.waitForFunction(
        (n) => Number(document.querySelector<HTMLElement>('.conversation')?.dataset['nodes']) > n,
        before,
      );
    }
    expect(await older.count()).toBe(0);
    // Walk the whole conversation from the top: every view is in order without repeats,
    // and together they reach seq 1 and the compaction.
    await page.$eval('.conversation', (el) => (el.scrollTop = 0));
    const union = new Set<number>();
    let dividers = 0;
    let firstQuestion = 0;
    for (let step = 0; step < 200; step += 1) {
      await page.waitForTimeout(step === 0 ? 300 : 80);
      const shown = await seqs(page);
      expect(shown).toEqual([...shown].sort((a, b) => a - b));
      expect(new Set(shown).size).toBe(shown.length);
      for (const seq of shown) union.add(seq);
      if ((await page.locator('.compaction[role="separator"]').count()) > 0) dividers += 1;
      firstQuestion += await page.locator('.bubble.user', { hasText: 'question 1' }).count();
      const done = await page.$eval('.conversation', (el) => {
        const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
        el.scrollTop += el.clientHeight / 2;
        return end;
      });
      if (done) break;
    }
    // Seq 0 is the first turn's turn/start, which draws nothing.
    expect(Math.min(...union)).toBe(1);
    expect(firstQuestion).toBeGreaterThan(0);
    expect(union.has(at)).toBe(true);
    expect(dividers).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('/compact in the composer records a requested compaction the divider shows', async () => {
    const id = await host.createSession('Compact on request');
    const journal = await host.journal(id);
    for (let n = 1; n <= 3; n += 1) await journal.append(turn(n, `Answer ${n}.`));
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
    await page.waitForSelector('.conversation [data-seq]');
    const input = page.locator('[data-testid="input"]');
    await input.fill('/compact keep the API design decisions');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');
    const divider = page.locator('.compaction[role="separator"]');
    await divider.waitFor({ timeout: 30_000 });
    expect(await divider.locator('.compaction-title').textContent()).toBe(
      'Context compacted on request',
    );
    await divider.locator('summary').click();
    expect(await divider.textContent()).toContain('“keep the API design decisions”');
    // Nothing was sent to the model as a prompt.
    expect(await page.locator('.bubble.user', { hasText: '/compact' }).count()).toBe(0);
    await page.screenshot({ path: `${artifacts}compaction-requested.png` });
    // A second request with nothing new to summarise is refused and the draft comes back.
    await input.fill('/compact');
    await input.press('Enter');
    await page.waitForSelector('.input-error');
    expect(await page.locator('.input-error').textContent()).toContain('nothing to compact');
    expect(await input.inputValue()).toBe('/compact');
    expect(errors).toEqual([]);
    await page.close();
  });
});
