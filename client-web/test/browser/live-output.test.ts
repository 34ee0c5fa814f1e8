// @vitest-environment node
import { createOpenAiProvider } from '@dsh/providers';
import {
  startFakeOpenAiServer,
  textReply,
  toolReply,
  type FakeOpenAiServer,
} from '@dsh/providers/test-kit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the live output browser tests: ${missing}`);

let model: FakeOpenAiServer;
let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  model = await startFakeOpenAiServer();
  const provider = createOpenAiProvider({
    baseUrl: model.baseUrl,
    model: 'fake-model',
    apiKey: 'k',
    retryBaseMs: 1,
  });
  host = await startWebHost({ provider, approvals: { bash: 'allow' } });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await model?.close();
});

/** What a terminal card shows at one moment: its state and its output box's lines. */
interface CardView {
  state: string;
  lines: string[];
  /** The label of the output's "more" button, if any. */
  more: string | undefined;
}

/**
 * Sends a prompt whose model reply runs `command` in bash on the host, then waits, in the
 * page, for the card of that call to show, while it is still running, a view each of the
 * `live` patterns matches (in order; one line of it, as a multi-line regex). Returns those
 * views and the settled one.
 */
async function watchCommand(
  page: Page,
  callId: string,
  command: string,
  live: readonly string[],
): Promise<{ running: CardView[]; settled: CardView }> {
  model.reply(
    toolReply([{ id: callId, name: 'bash', args: JSON.stringify({ command }) }]),
    textReply(['Done.']),
  );
  const id = await host.createSession(`Live ${callId}`);
  await page.goto(`${host.url}/#/s/${id}`);
  await page.waitForSelector('.empty-state');
  const input = page.locator('[data-testid="input"]');
  await input.fill('run it');
  await input.press('Enter');
  const view = (selector: string, pattern: string | undefined) =>
    page.waitForFunction(
      ({ selector, pattern }) => {
        const card = document.querySelector<HTMLElement>(selector);
        const box = card?.querySelector('[data-field="output"]');
        if (!card || !box) return undefined;
        const lines = [...box.querySelectorAll('.dsh-term-line')].map((l) => l.textContent ?? '');
        const state = card.dataset['state'] ?? '';
        if (
          pattern !== undefined &&
          !(state === 'running' && new RegExp(pattern, 'm').test(lines.join('\n')))
        )
          return undefined;
        const more = box.querySelector('[data-field="hidden"]')?.textContent?.trim();
        return { state, lines, more };
      },
      { selector, pattern },
      { timeout: 30_000 },
    );
  const card = `.dsh-card[data-call-id="${callId}"][data-mode="conversation"]`;
  const running: CardView[] = [];
  for (const pattern of live)
    running.push((await (await view(card, pattern)).jsonValue()) as CardView);
  await page.screenshot({ path: `${artifacts}live-${callId}.png` });
  const settled = (await (
    await view(`${card}:not([data-state="running"])`, undefined)
  ).jsonValue()) as CardView;
  return { running, settled };
}

describe.skipIf(missing !== undefined)('live output in Chromium', { timeout: 60_000 }, () => {
  it('shows lines of a running command before it ends, then its result', async () => {
    const { page, errors } = await browser.page();
    const command = 'for i in $(seq 1 50); do echo line $i; sleep 0.05; done';
    const {
      running: [first, tail],
      settled,
    } = await watchCommand(page, 'call_lines', command, ['^line \\d+$', '^line [1-4]\\d$']);
    const upTo = (view: CardView | undefined, count: number) => {
      const last = Number(view?.lines.at(-1)?.replace('line ', ''));
      return Array.from({ length: count }, (_, i) => `line ${last - count + 1 + i}`);
    };
    // The live tail: the last lines, consecutive, ending where the command had got to;
    // past eight lines, the earlier ones behind the "more" button.
    expect(first?.lines).toEqual(upTo(first, first?.lines.length ?? 0));
    expect(first?.lines).not.toContain('line 50');
    expect(tail?.lines).toEqual(upTo(tail, 8));
    expect(tail?.more).toMatch(/^Show \d+ more lines$/);
    expect(settled.state).toBe('ok');
    expect(settled.lines.at(-1)).toBe('line 50');
    expect(await page.locator('[data-call-id="call_lines"] [data-field="live-note"]').count()).toBe(
      0,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the settled card of a live follow as a fresh page load draws it', async () => {
    const { page, errors } = await browser.page();
    const command =
      "for i in $(seq 1 20); do printf '\\033[32mline %d\\033[0m\\n' $i; sleep 0.05; done; " +
      "for p in 50 100; do printf '\\rprogress %3d%%' $p; sleep 0.05; done; echo";
    const { settled } = await watchCommand(page, 'call_replay', command, ['^line \\d+$']);
    const card = '.dsh-card[data-call-id="call_replay"][data-mode="conversation"]';
    const drawn = (p: Page) => p.locator(card).evaluate((el) => el.innerHTML);
    const live = await drawn(page);
    const fresh = await browser.page();
    await fresh.page.goto(page.url());
    await fresh.page.waitForSelector(`${card}[data-state="ok"]`);
    expect(await drawn(fresh.page)).toBe(live);
    expect(settled.lines.at(-1)).toBe('progress 100%');
    expect(errors).toEqual([]);
    expect(fresh.errors).toEqual([]);
    await fresh.page.close();
    await page.close();
  });

  it('redraws a carriage-return progress bar in place while it runs', async () => {
    const { page, errors } = await browser.page();
    const command =
      "for i in 10 20 30 40 50 60 70 80 90 100; do printf '\\rprogress %3d%%' $i; sleep 0.2; done; echo";
    const { running, settled } = await watchCommand(page, 'call_progress', command, [
      '^progress +[1-8]0%$',
    ]);
    expect(running[0]?.lines).toHaveLength(1);
    expect(settled.lines).toEqual(['progress 100%']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
