// @vitest-environment node
import { create } from '@bufbuild/protobuf';
import { assistantMessage, turnEnd, turnStart, userMessage, type Payload } from '@dsh/fixtures';
import { UsageSchema } from '@dsh/gen/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the session-facts browser tests: ${missing}`);

/** USD per million tokens: input, output, cache read, cache write. */
const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost({ chunkDelayMs: 1, prices: new Map([['demo', price]]) });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** One turn with one step of the given usage. */
function turn(n: number, input: number, output: number, cacheRead: number): Payload[] {
  const tokens = create(UsageSchema, {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: cacheRead,
  });
  return [
    turnStart(n),
    userMessage(`question ${n}`),
    assistantMessage({ turn: n }, [`answer ${n}`], tokens),
    turnEnd(n),
  ];
}

function usd(input: number, output: number, cacheRead: number): number {
  return (input * price.input + output * price.output + cacheRead * price.cacheRead) / 1e6;
}

describe.skipIf(missing !== undefined)('session facts in Chromium', { timeout: 90_000 }, () => {
  it('shows tokens, cost, context and per-turn facts, and prices a turn that ends live', async () => {
    const id = await host.createSession('Priced session');
    const journal = await host.journal(id);
    await journal.append([...turn(1, 12_000, 800, 40_000), ...turn(2, 3_000, 1_200, 50_000)]);
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    const facts = page.locator('[data-testid="session-facts"]');
    await facts.waitFor();
    expect(await facts.locator('[data-fact="model"]').textContent()).toBe('demo');
    expect(await facts.locator('[data-fact="tokens"] span').allTextContents()).toEqual([
      '15k in',
      '2k out',
      '90k cached',
    ]);
    const cost = facts.locator('[data-fact="cost"]');
    const before = usd(15_000, 2_000, 90_000);
    expect(await cost.textContent()).toBe(`$${before.toFixed(2)}`);
    // The context is the latest step's prompt plus its output.
    expect(await facts.locator('[data-fact="context"]').innerText()).toContain('54k');
    // Each turn's end says how long it took and what it used; the latest turn its cost.
    const ends = page.locator('[data-testid="turn-end"]');
    expect(await ends.count()).toBe(2);
    expect(await ends.nth(0).locator('[data-fact="tokens"]').textContent()).toBe(
      '12k in · 800 out · 40k cached',
    );
    expect(await ends.nth(0).locator('[data-fact="duration"]').textContent()).toMatch(
      /^\d+ ms$|^\d+\.\d s$/,
    );
    expect(await ends.nth(1).locator('[data-fact="cost"]').textContent()).toBe(
      `$${usd(3_000, 1_200, 50_000).toFixed(2)}`,
    );
    // Message times are relative, the exact time is the tooltip.
    const time = page.locator('.bubble.user time').first();
    expect(await time.textContent()).toBe('just now');
    expect(await time.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await page.screenshot({ path: `${artifacts}session-facts.png` });

    // A turn that ends while the session is open: tokens at once, its cost right after.
    await journal.append(turn(3, 100_000, 5_000, 0));
    await page.locator('[data-testid="turn-end"]').nth(2).waitFor();
    const after = before + usd(100_000, 5_000, 0);
    await page.waitForFunction(
      (label) => document.querySelector('[data-fact="cost"]')?.textContent === label,
      `$${after.toFixed(2)}`,
      { timeout: 10_000 },
    );
    expect(await facts.locator('[data-fact="tokens"] span').allTextContents()).toEqual([
      '115k in',
      '7k out',
      '90k cached',
    ]);
    expect(
      await page
        .locator('[data-testid="turn-end"]')
        .nth(2)
        .locator('[data-fact="cost"]')
        .textContent(),
    ).toBe(`$${usd(100_000, 5_000, 0).toFixed(2)}`);
    await page.screenshot({ path: `${artifacts}session-facts-live.png` });
    expect(errors).toEqual([]);
    await page.close();
  });
});
