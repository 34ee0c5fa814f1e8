// @vitest-environment node
import {
  assistantMessage,
  chunk,
  textChunks,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { BlockType } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { demoStepIndex, startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the browser tests: ${missing}`);

let host: WebHost;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (missing !== undefined) return;
  host = await startWebHost();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});
// A page left open by a failed test keeps its streams, and Chromium's six connections per
// origin would stall the next test's requests.
afterEach(async () => {
  for (const page of browser?.context.pages() ?? []) await page.close();
});

const t1 = { turn: 1 };
const cancelled = (turn: number) => turnEnd(turn, TurnEndReason.CANCELLED);

function toolStart(turn: number, index: number): Payload {
  return chunk(
    { turn },
    {
      case: 'blockStart',
      value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType: BlockType.TOOL_CALL },
    },
  );
}

function toolDelta(turn: number, index: number, id: string, name?: string, args = ''): Payload {
  return chunk(
    { turn },
    {
      case: 'toolCallDelta',
      value: {
        $typeName: 'dsh.session.v1.ToolCallDelta',
        index,
        id,
        ...(name === undefined ? {} : { name }),
        argumentsDelta: args,
      },
    },
  );
}

async function openSession(page: Page, id: string): Promise<void> {
  await page.goto(`${host.url}/#/s/${encodeURIComponent(id)}`);
  await page.waitForSelector('.conversation [data-seq]');
}

/** Every card's header state: tone, label and drawn colour, in surface order. */
async function headerStates(
  page: Page,
  selector = '.conversation .dsh-card',
): Promise<{ callId: string; state: string; label: string; color: string }[]> {
  return page.$$eval(selector, (cards) =>
    cards.map((card) => {
      const head = card.querySelector<HTMLElement>(':scope > .dsh-card-head [data-field="state"]');
      return {
        callId: card.getAttribute('data-call-id') ?? '',
        state: card.getAttribute('data-state') ?? '',
        label: head?.textContent?.trim() ?? '',
        color: head ? getComputedStyle(head).color : '',
      };
    }),
  );
}

/** A CSS colour variable of the page, as computed `rgb(...)`. */
async function themeColor(page: Page, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  }, variable);
}

/** What has keyboard focus: its test id, action or class, for assertions. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (el === null || el === document.body) return 'body';
    return (
      el.dataset['testid'] ??
      el.dataset['action'] ??
      (el.classList.contains('dsh-card-main')
        ? `card:${el.closest('[data-call-id]')?.getAttribute('data-call-id')}`
        : el.className)
    );
  });
}

describe.skipIf(missing !== undefined)('card states in Chromium', { timeout: 60_000 }, () => {
  it('shows a Stop as stopped, the same whether the host or the turn end recorded it', async () => {
    const id = await host.createSession('Stop');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const input = page.locator('[data-testid="input"]');
    await input.fill('Show me around');
    await input.press('Enter');
    await page.waitForSelector('[data-pending="approval"]');
    await page.click('[data-action="stop"]');
    await page.waitForSelector('.turn-end.marked');
    const bash = '.conversation .dsh-card[data-tool="bash"]';
    await page.waitForSelector(`${bash}[data-state="stopped"]`);
    const live = await headerStates(page, bash);
    expect(live.map(({ state, label }) => `${state}:${label}`)).toEqual(['stopped:stopped']);
    expect(await focused(page)).toBe('input');
    await page.screenshot({ path: `${artifacts}stop-live.png` });

    await page.reload();
    await page.waitForSelector('.turn-end.marked');
    expect(await headerStates(page, bash)).toEqual(live);

    // A fixture holds both records of a Stop: an interrupted result and a frozen call.
    await openSession(page, 'interrupted-turn');
    const both = await headerStates(page, bash);
    expect(both).toHaveLength(2);
    for (const card of both) {
      expect(card).toMatchObject({ state: 'stopped', label: 'stopped', color: live[0]?.color });
    }
    expect(live[0]?.color).toBe(await themeColor(page, '--dsh-warn'));
    await page.screenshot({ path: `${artifacts}stop-fixture.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('never draws an empty card when a stream stops before a tool call has an id and a name', async () => {
    const id = await host.createSession('Stopped mid-stream');
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('.empty-state');
    const journal = await host.journal(id);
    await journal.append([
      userMessage('go'),
      turnStart(1),
      ...textChunks(t1, 0, ['Looking around.']),
      toolStart(1, 1),
    ]);
    await page.waitForFunction(() =>
      document.querySelector('.node-partial')?.textContent?.includes('Looking around.'),
    );
    await journal.append([toolDelta(1, 1, 'call_half')]);
    await page.waitForTimeout(300);
    expect(await page.locator('.conversation .dsh-card').count()).toBe(0);
    await journal.append([cancelled(1)]);
    await page.waitForSelector('.turn-end.marked');
    expect(await page.locator('.conversation .dsh-card').count()).toBe(0);
    expect(await page.locator('.marker.interrupted').count()).toBe(1);

    // A call that got its id and name in time is drawn, and stops like any other.
    await journal.append([
      userMessage('again'),
      turnStart(2),
      toolStart(2, 0),
      toolDelta(2, 0, 'call_named', 'bash', '{"command":"ls'),
    ]);
    await page.waitForSelector('.node-partial .dsh-card[data-call-id="call_named"]');
    await journal.append([cancelled(2)]);
    await page.waitForSelector('.dsh-card[data-call-id="call_named"][data-state="stopped"]');
    const live = await headerStates(page);
    expect(live.map(({ callId, state }) => `${callId}:${state}`)).toEqual(['call_named:stopped']);
    const titles = await page.$$eval('.conversation .dsh-card [data-field="title"]', (els) =>
      els.map((el) => el.textContent?.trim()),
    );
    expect(titles).toEqual(['Bash']);
    await page.screenshot({ path: `${artifacts}stopped-mid-stream.png` });

    await page.reload();
    await page.waitForSelector('.turn-end.marked');
    expect(await headerStates(page)).toEqual(live);
    expect(await page.locator('.marker.interrupted').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the output before a screen clear or reset, and shows the raw escapes in details', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'hostile-output');
    const card = page.locator('.conversation .dsh-card[data-tool="bash"]');
    await card.locator('.dsh-card-toggle').click();
    const output = card.locator('[data-field="output"]');
    for (const text of [
      '<script>alert("xss")</script>',
      'title set (OSC 0)',
      'screen cleared, cursor home (CSI 2J, CSI H)',
      'full reset (CSI 3J, RIS)',
    ]) {
      expect(await output.textContent()).toContain(text);
    }
    expect(await output.locator('[data-break]').allTextContents()).toEqual([
      '── screen cleared ──',
      '── terminal reset ──',
    ]);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${artifacts}screen-clear-kept.png` });

    await card.locator('.dsh-card-main').click();
    const details = page.locator('[data-testid="details"]');
    await details.locator('.dsh-raw > summary').click();
    const raw = details.locator('[data-field="raw-output"]');
    const text = (await raw.textContent()) ?? '';
    expect(text).toContain('ESC[2JESC[Hscreen cleared');
    expect(text).toContain('ESC[3JESCcfull reset');
    expect(text).not.toContain('\x1b');
    expect(new Set(await raw.locator('.dsh-ctl').allTextContents())).toEqual(
      new Set(['ESC', 'BEL']),
    );
    await raw.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${artifacts}screen-clear-raw.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says an unknown session does not exist, offers the way back, and misses no file', async () => {
    const { page, errors } = await browser.page();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${host.url}/#/s/does-not-exist`);
    const panel = page.locator('[data-testid="missing-session"]');
    await panel.waitFor();
    expect(await panel.locator('h1').textContent()).toBe(
      'No session “does-not-exist” on this host',
    );
    const body = (await page.textContent('body')) ?? '';
    expect(body).not.toContain('agent runtime');
    expect(body).not.toContain('Retry');
    expect(await page.locator('[data-testid="input"]').count()).toBe(0);
    expect(await page.locator('[data-testid="banner"]').count()).toBe(0);
    await page.screenshot({ path: `${artifacts}missing-session.png` });
    // The only failure is the host's not_found answer for the session itself.
    expect(failed.every((line) => line.includes('/dsh.session.v1.SessionService/'))).toBe(true);
    expect(failed.length).toBeGreaterThan(0);

    await panel.locator('[data-action="leave-missing"]').click();
    await page.waitForSelector('.welcome h1:text-is("dsh")');
    expect(new URL(page.url()).hash).toBe('#/');
    expect(await focused(page)).toMatch(/session-row|create/);

    failed.length = 0;
    await openSession(page, 'showcase');
    await page.waitForTimeout(300);
    expect(failed).toEqual([]);
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '';
      const response = await fetch(href);
      return { href, status: response.status, type: response.headers.get('content-type') };
    });
    expect(icon).toMatchObject({ status: 200, type: 'image/svg+xml' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says what is true while the host does not answer its API', async () => {
    const id = await host.createSession('Host silent');
    const { page, errors } = await browser.page();
    // The page loads from the real host; its API calls fail as on a broken network.
    const api = '**/dsh.session.v1.SessionService/**';
    await page.route(api, (route) => route.abort('connectionrefused'));
    await page.goto(`${host.url}/#/s/${id}`);
    await page.waitForSelector('[data-testid="banner"]');
    expect(await page.textContent('[data-testid="list-note"]')).toContain(
      'Not loaded: the host does not answer.',
    );
    const input = page.locator('[data-testid="input"]');
    expect(await input.getAttribute('placeholder')).toBe(
      'Waiting for the host to answer: input is off until then',
    );
    expect(await page.textContent('body')).not.toContain('agent');
    await page.screenshot({ path: `${artifacts}host-silent.png` });
    await page.unroute(api);
    // Retry now, unless the client's own backoff reconnected first and the banner went.
    await page
      .locator('[data-testid="banner"] [data-action="retry"]')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.waitForSelector(`.session-row[data-session-id="${id}"]`);
    await page.waitForSelector('[data-testid="input"]:not(:disabled)');
    expect(await page.locator('[data-testid="list-note"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows one state per card: failures, declines, editor paths and fetches', async () => {
    const { page, errors } = await browser.page();
    const red = await (async () => {
      await openSession(page, 'terminal-exit-code');
      return themeColor(page, '--dsh-error');
    })();
    const exits = await headerStates(page);
    expect(exits.map((c) => `${c.state}:${c.label}`)).toEqual(['error:failed', 'error:failed']);
    const pills = await page.$$eval('[data-field="ending"]', (els) =>
      els.map((el) => getComputedStyle(el).color),
    );
    expect(new Set([...pills, ...exits.map((c) => c.color)])).toEqual(new Set([red]));
    expect(await page.locator('.dsh-card-head [data-field="state"]:text-is("done")').count()).toBe(
      0,
    );
    await page.screenshot({ path: `${artifacts}state-exit-code.png` });

    for (const [fixture, label] of [
      ['terminal-timeout', 'timed out'],
      ['terminal-signal', 'killed'],
    ] as const) {
      await openSession(page, fixture);
      expect((await headerStates(page)).map((c) => `${c.state}:${c.label}`)).toEqual([
        `error:${label}`,
      ]);
    }

    await openSession(page, 'ask-user-cancelled');
    const [declined] = await headerStates(page);
    expect(declined).toMatchObject({ state: 'declined', label: 'declined' });
    expect(declined?.color).toBe(await themeColor(page, '--dsh-muted'));
    const pill = page.locator('[data-field="question-state"]');
    expect(await pill.textContent()).toBe('Declined');
    expect(await pill.evaluate((el) => getComputedStyle(el).color)).not.toBe(red);
    await page.screenshot({ path: `${artifacts}state-declined.png` });

    await openSession(page, 'diff-str-replace-editor');
    const rows = await page.$$eval('.conversation .dsh-card-head', (heads) =>
      heads.map((head) =>
        [...head.querySelectorAll('[data-field="title"], [data-field="summary"]')]
          .map((el) => el.textContent?.trim())
          .join(' '),
      ),
    );
    expect(rows).toEqual([
      'Create src/greet.py',
      'Edit src/greet.py',
      'Insert src/greet.py',
      'View src/greet.py',
    ]);
    await page.screenshot({ path: `${artifacts}state-editor-paths.png` });

    await openSession(page, 'web-fetch');
    const fetches = await headerStates(page);
    expect(fetches.map((c) => c.label)).toEqual(['done', 'failed', 'done']);
    const redirects = await page.locator('[data-field="requested-url"]').allTextContents();
    expect(redirects.map((text) => text.trim())).toEqual([
      'redirected from http://docs.example.com/start',
    ]);

    const id = await host.createSession('Trailing slash');
    const url = 'https://docs.example.com/v2';
    await (
      await host.journal(id)
    ).append([
      userMessage('read the docs'),
      turnStart(1),
      assistantMessage(t1, [toolCallBlock('call_slash', 'web_fetch', { url })]),
      toolCall('call_slash', 'web_fetch', { url }),
      toolResult('call_slash', 'Docs home', {
        meta: { url: `${url}/`, statusCode: 200, truncated: false },
      }),
      assistantMessage(t1, ['Read it.']),
      turnEnd(1),
    ]);
    await openSession(page, id);
    await page.waitForSelector('.dsh-card[data-call-id="call_slash"] [data-field="url"]');
    expect(await page.locator('[data-field="requested-url"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks a pending question once and marks the chosen option once answered', async () => {
    const id = await host.createSession('Question');
    const before = (await demoStepIndex('ask_user')) - 1;
    const todos = { todos: [{ content: 'tour', status: 'in_progress' }] };
    await (
      await host.journal(id)
    ).append([
      userMessage('Show me around'),
      turnStart(1),
      assistantMessage(t1, [toolCallBlock(`demo-0-${before}-0`, 'todo_write', todos)]),
      toolCall(`demo-0-${before}-0`, 'todo_write', todos),
      toolResult(`demo-0-${before}-0`, 'Todo list updated.'),
      turnEnd(1),
    ]);
    const { page, errors } = await browser.page();
    await openSession(page, id);
    const input = page.locator('[data-testid="input"]');
    await input.fill('Go on');
    await input.press('Enter');
    const pending = page.locator('[data-pending="question"]');
    await pending.waitFor();
    const asked = await page.$eval('.conversation', (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let count = 0;
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (node.textContent?.includes('Is this tour useful?')) count += 1;
      }
      return count;
    });
    expect(asked).toBe(1);
    const card = page.locator('.conversation .dsh-card[data-tool="ask_user"]');
    expect(await card.locator('[data-field="asked-below"]').textContent()).toContain('below');
    await page.screenshot({ path: `${artifacts}question-pending.png` });

    await pending.locator('button', { hasText: 'Yes' }).click();
    await pending.locator('[data-action="answer"]').click();
    await pending.waitFor({ state: 'detached' });
    await card.locator('[data-chosen]').waitFor();
    expect(await card.locator('[data-chosen] .dsh-q-option').allTextContents()).toEqual(['Yes']);
    expect(await card.locator('[data-field="question-state"]').textContent()).toBe('Answered');
    // Focus moved on from the closed card: to the next pending card, else the message.
    expect(['input', 'allow']).toContain(await focused(page));
    await page.screenshot({ path: `${artifacts}question-answered.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps keyboard focus when the details close and when older events load', async () => {
    const { page, errors } = await browser.page();
    await openSession(page, 'showcase');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    const close = page.locator('[data-testid="details"] [aria-label^="Close details"]');
    await close.focus();
    await close.press('Enter');
    await page.waitForSelector('[data-testid="details"]', { state: 'detached' });
    const selected = await page.$eval('.dsh-card-selected', (el) =>
      el.getAttribute('data-call-id'),
    );
    expect(await focused(page)).toBe(`card:${selected}`);

    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="details"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="details"]', { state: 'detached' });
    expect(await focused(page)).toBe(`card:${selected}`);

    await openSession(page, 'long-paging');
    const older = page.locator('[data-action="load-older"]');
    const count = await page.locator('.conversation [data-seq]').count();
    await older.focus();
    await older.press('Enter');
    await page.waitForFunction(
      (n) => document.querySelectorAll('.conversation [data-seq]').length > n,
      count,
    );
    await page.waitForTimeout(100);
    expect(['load-older', 'conversation']).toContain(await focused(page));
    expect(errors).toEqual([]);
    await page.close();
  });
});
