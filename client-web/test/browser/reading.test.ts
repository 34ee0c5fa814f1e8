// @vitest-environment node
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { create } from '@bufbuild/protobuf';
import {
  assistantMessage,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, browserMissing, launchBrowser } from './browser.js';
import { fixtureJournals, startWebHost, type WebHost } from './web-host.js';

const missing = browserMissing();
if (missing !== undefined && process.env['CI'] === 'true') {
  throw new Error(`browser tests cannot run on CI: ${missing}`);
}
if (missing !== undefined) console.warn(`skipping the reading browser tests: ${missing}`);

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

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A real PNG: a `size`² gradient square (RGB, no filter). */
function png(size: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      rows.set([(x * 255) / size, (y * 255) / size, 160], y * (1 + size * 3) + 1 + x * 3);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]);
}

function image(mediaType: string, data: Uint8Array): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'image', value: { mediaType, data } } });
}

describe.skipIf(missing !== undefined)('reading in Chromium', { timeout: 90_000 }, () => {
  it('marks the words that changed in a diff, on both sides', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/diff-edit`);
    await page.locator('.dsh-card[data-tool="edit"]').first().waitFor();
    const card = page
      .locator('.dsh-card[data-tool="edit"]', { has: page.locator('.dsh-word-removed') })
      .first();
    await card.waitFor();
    expect(await card.locator('.dsh-word-removed').allTextContents()).toContain('legacyHandle');
    expect(await card.locator('.dsh-word-added').allTextContents()).toContain('handle');
    // The unchanged rest of a paired row is plain, and the row keeps its +/- colour.
    const row = card.locator('tr.dsh-diff-added', { has: page.locator('.dsh-word-added') }).first();
    expect(await row.locator('.dsh-src').textContent()).toContain('return handle(req);');
    const colours = await card
      .locator('.dsh-word-added')
      .first()
      .evaluate((el) => [
        getComputedStyle(el).backgroundColor,
        getComputedStyle(el.closest('tr')!).backgroundColor,
      ]);
    expect(colours[0]).not.toBe(colours[1]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${artifacts}diff-words.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a message’s own raster images inline and names the ones it refuses', async () => {
    const id = await host.createSession('Images');
    const journal = await host.journal(id);
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const html = new TextEncoder().encode('<html><img src="http://example.com/x.png"></html>');
    const message: Payload = {
      case: 'userMessage',
      value: {
        $typeName: 'dsh.session.v1.UserMessage',
        source: 'user',
        content: [
          create(ContentBlockSchema, {
            block: { case: 'text', value: { text: 'What is in these?' } },
          }),
          image('image/png', png(96)),
          image('image/svg+xml', svg),
          image('image/png', html),
        ],
      },
    };
    await journal.append([message]);
    const { page, errors, dialogs } = await browser.page();
    const remote: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(host.url) && !request.url().startsWith('blob:'))
        remote.push(request.url());
    });
    await page.goto(`${host.url}/#/s/${id}`);
    const img = page.locator('.bubble.user [data-testid="inline-image"]');
    await img.waitFor();
    expect(await img.count()).toBe(1);
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>('[data-testid="inline-image"]');
      return el !== null && el.complete && el.naturalWidth === 96;
    });
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(
      await page.locator('.bubble.user [data-testid="image-refused"]').allTextContents(),
    ).toEqual(['[image/svg+xml image not shown]', '[not a valid png image]']);
    expect(remote).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.locator('.bubble.user').screenshot({ path: `${artifacts}inline-images.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the images of a tool result inline in its card, like a message’s', async () => {
    const id = await host.createSession('Tool images');
    const journal = await host.journal(id);
    const result = toolResult('shot-1', 'A screenshot of the page:');
    if (result.case !== 'toolResult') throw new Error('toolResult builds a tool/result');
    result.value.content.push(
      image('image/png', png(64)),
      image('image/svg+xml', new TextEncoder().encode('<svg></svg>')),
    );
    await journal.append([
      userMessage('Take a screenshot'),
      turnStart(1),
      assistantMessage({ turn: 1 }, ['Taking one.', toolCallBlock('shot-1', 'screenshot', {})]),
      toolCall('shot-1', 'screenshot', {}),
      result,
      turnEnd(1),
    ]);
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    const card = page.locator('.dsh-card[data-call-id="shot-1"]');
    const img = card.locator('[data-field="result-images"] [data-testid="inline-image"]');
    await img.waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>(
        '[data-field="result-images"] [data-testid="inline-image"]',
      );
      return el !== null && el.complete && el.naturalWidth === 64;
    });
    expect(await img.getAttribute('src')).toMatch(/^blob:/);
    expect(await card.locator('[data-testid="image-refused"]').allTextContents()).toEqual([
      '[image/svg+xml image not shown]',
    ]);
    await card.screenshot({ path: `${artifacts}tool-result-images.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('exports a session as one HTML file that opens offline and looks like the client', async () => {
    const id = await host.createSession('Export with an image');
    const result = toolResult('shot-2', 'The chart:');
    if (result.case !== 'toolResult') throw new Error('toolResult builds a tool/result');
    result.value.content.push(image('image/png', png(48)));
    await (
      await host.journal(id)
    ).append([
      userMessage('Draw me a chart'),
      turnStart(1),
      assistantMessage({ turn: 1 }, ['Here it is.', toolCallBlock('shot-2', 'chart', {})]),
      toolCall('shot-2', 'chart', {}),
      result,
      assistantMessage({ turn: 1, step: 1 }, ['**Done**: one chart.']),
      turnEnd(1),
    ]);
    const { page, errors } = await browser.page();
    const exportOf = async (session: string): Promise<string> => {
      await page.goto(`${host.url}/#/s/${session}`);
      await page.waitForSelector('.conversation [data-seq]');
      await page.click('[data-testid="export"] summary');
      const [file] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        page.click('[data-action="export-html"]'),
      ]);
      expect(file.suggestedFilename()).toBe(`${session}.html`);
      return readFileSync(await file.path(), 'utf8');
    };
    const showcase = await exportOf('showcase');
    const withImage = await exportOf(id);
    for (const html of [showcase, withImage]) {
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toContain('blob:');
      expect(html).toContain(
        `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`,
      );
    }

    // Opened from disk with every request refused but its own file: it draws itself.
    const saved = await browser.page(1000, 800);
    const requests: string[] = [];
    await saved.page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const path = join(host.dir, 'export.html');
    for (const [html, check] of [
      [showcase, 'showcase'],
      [withImage, 'image'],
    ] as const) {
      writeFileSync(path, html);
      await saved.page.goto(`file://${path}`);
      const cards = await saved.page.locator('.dsh-card').count();
      expect(cards).toBeGreaterThan(0);
      if (check === 'showcase') {
        expect(await saved.page.textContent('.export-head h1')).toContain('Showcase');
        // Cards are drawn expanded, styled by the inlined CSS (a card has a border).
        const border = await saved.page
          .locator('.dsh-card')
          .first()
          .evaluate((el) => getComputedStyle(el).borderTopStyle);
        expect(border).toBe('solid');
        await saved.page.screenshot({ path: `${artifacts}export-html.png` });
      } else {
        expect(await saved.page.locator('strong:text("Done")').count()).toBe(1);
        await saved.page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="inline-image"]');
          return img !== null && img.complete && img.naturalWidth === 48;
        });
        expect(
          await saved.page.locator('[data-testid="inline-image"]').getAttribute('src'),
        ).toMatch(/^data:image\/png;base64,/);
      }
    }
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    expect(saved.errors).toEqual([]);
    await saved.page.close();
    await page.close();
  });

  it('copies a message, a call’s arguments, its output and its file path', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: host.url,
    });
    const id = await host.createSession('Copy things');
    await (
      await host.journal(id)
    ).append([
      userMessage('Copy me, please'),
      turnStart(1),
      assistantMessage({ turn: 1 }, [
        '**Bold** answer',
        toolCallBlock('run-1', 'bash', { command: 'echo hi' }),
        toolCallBlock('read-1', 'read', { file_path: 'notes.md' }),
      ]),
      toolCall('run-1', 'bash', { command: 'echo hi' }),
      toolResult('run-1', 'hi\n', { meta: { exitCode: 0 } }),
      toolCall('read-1', 'read', { file_path: 'notes.md' }),
      toolResult('read-1', '1\tnotes'),
      turnEnd(1),
    ]);
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/${id}`);
    const clipboard = (): Promise<string> => page.evaluate(() => navigator.clipboard.readText());
    const user = page.locator('.bubble.user');
    await user.hover();
    await user.locator('[data-copy="message"]').click();
    expect(await clipboard()).toBe('Copy me, please');
    expect(await user.locator('[data-copy="message"]').textContent()).toContain('Copied');
    const assistant = page.locator('.assistant');
    await assistant.hover();
    await assistant.locator('[data-copy="message"]').click();
    expect(await clipboard()).toBe('**Bold** answer');

    const details = page.locator('[data-testid="details"]');
    await page.locator('.dsh-card[data-call-id="run-1"] .dsh-card-main').click();
    await page.keyboard.press('Enter');
    await details.locator('[data-copy="output"]').click();
    expect(await clipboard()).toBe('hi\n');
    await details.locator('[data-copy="arguments"]').click();
    expect(JSON.parse(await clipboard())).toEqual({ command: 'echo hi' });
    await details.screenshot({ path: `${artifacts}details-copy.png` });
    await page.locator('.dsh-card[data-call-id="read-1"] .dsh-card-main').click();
    await page.keyboard.press('Enter');
    await details.locator('[data-copy="file path"]').click();
    expect(await clipboard()).toMatch(/\/work-[a-z0-9]+\/notes\.md$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('exports a whole session as Markdown and as raw events', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${host.url}/#/s/long-paging`);
    await page.waitForSelector('.conversation [data-seq]');
    const save = async (action: string): Promise<{ name: string; text: string }> => {
      await page.click('[data-testid="export"] summary');
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`[data-action="${action}"]`),
      ]);
      const path = await file.path();
      return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
    };
    const journal = readFileSync(join(fixtureJournals, 'long-paging.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const raw = await save('export-jsonl');
    expect(raw.name).toBe('long-paging.jsonl');
    const lines = raw.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq?: number });
    // Every event, beyond the loaded tail page, in order from seq 0.
    expect(lines.map((line) => line.seq ?? 0)).toEqual(journal.slice(1).map((_, i) => i));
    const markdown = await save('export-markdown');
    expect(markdown.name).toBe('long-paging.md');
    expect(markdown.text.startsWith('# Long session for paging\n\n## You\n\n')).toBe(true);
    expect(markdown.text.split('\n## You\n').length - 1).toBe(
      journal.filter((line) => line.includes('"type":"user/message"')).length,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
