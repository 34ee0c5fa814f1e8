import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { webClientDir, webDistDir } from '@dsh/client-web/web-dist';
import { userMessage } from '@dsh/fixtures';
import { importClaudeCode } from '@dsh/import';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { percentile, since, type BenchRow } from './bench-row.js';
import { writeClaudeTranscript } from './claude-transcript.js';
import { longJournal } from './page-bench.js';

const chromiumPath = '/usr/bin/chromium';
const clientDir = webClientDir;
const events = 200_000;
const pages = 40;
/** Claude Code transcript lines (user and assistant messages) of the imported session. */
const importedMessages = 10_000;
const appendRounds = 20;

/** Used JS heap of the page after a full garbage collection, in MB. */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
  return used / (1024 * 1024);
}

/** The page's globals, typed for callbacks that run in the browser (no DOM lib here). */
type BrowserGlobals = {
  location: { hash: string };
  document: { querySelectorAll(selector: string): { length: number } };
};

const nodeCount = (page: Page): Promise<number> =>
  page.$$eval('.conversation [data-seq]', (nodes) => nodes.length);

/** The nodes of the loaded window (rendered or not), as the conversation reports them. */
const loadedNodes = (page: Page): Promise<number> =>
  page.$eval('.conversation', (el) =>
    Number((el as unknown as { dataset: Record<string, string> }).dataset['nodes']),
  );

/** Every element of the page's DOM. */
const domElements = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as {
          document: { getElementsByTagName(n: string): { length: number } };
        }
      ).document.getElementsByTagName('*').length,
  );

/** Opens a session by its hash and times it to the first rendered conversation node. */
async function openSession(page: Page, sessionId: string): Promise<number> {
  // From the welcome view, so no node of the session open before counts.
  await page.evaluate(() => ((globalThis as unknown as BrowserGlobals).location.hash = '#/'));
  await page.waitForFunction(
    () =>
      (globalThis as unknown as BrowserGlobals).document.querySelectorAll(
        '.conversation [data-seq]',
      ).length === 0,
  );
  const start = performance.now();
  await page.evaluate(
    (id) => ((globalThis as unknown as BrowserGlobals).location.hash = `#/s/${id}`),
    sessionId,
  );
  await page.waitForFunction(
    (id) =>
      (globalThis as unknown as BrowserGlobals).location.hash === `#/s/${id}` &&
      (globalThis as unknown as BrowserGlobals).document.querySelectorAll(
        '.conversation [data-seq]',
      ).length > 0,
    sessionId,
  );
  return since(start);
}

/** A writable copy of a journal under another session id, in the store's data dir. */
function writableCopy(path: string, dataDir: string, sessionId: string): void {
  const text = readFileSync(path, 'utf8');
  const cut = text.indexOf('\n');
  const header = { ...(JSON.parse(text.slice(0, cut)) as object), sessionId };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, `${sessionId}.jsonl`), JSON.stringify(header) + text.slice(cut));
}

/**
 * The web client in Debian's Chromium against a real host: the compressed script of the
 * first load; time to the first rendered tail page and the page heap after opening a
 * 200k-event session, then after loading 40 older pages (the DOM element count and how
 * the last older pages compare with the first ones); the tail open of an imported
 * 10,000-message Claude Code session; and append-to-visible of a message in a writable
 * copy of the 200k-event session. Empty (with a note on stderr) when Chromium is missing.
 */
export async function webBench(): Promise<BenchRow[]> {
  if (!existsSync(chromiumPath)) {
    process.stderr.write(
      `web bench skipped: ${chromiumPath} is missing (apt-get install chromium)\n`,
    );
    return [];
  }
  if (!existsSync(join(webDistDir, 'index.html'))) {
    const vite = join(clientDir, '../node_modules/vite/bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: clientDir });
  }
  const journal = await longJournal(events);
  const sessionId = `long-${events}`;
  const dir = mkdtempSync(join(tmpdir(), 'dsh-web-bench-'));
  const liveId = `live-${events}`;
  writableCopy(journal, join(dir, 'sessions'), liveId);
  const store = await createJournalStore({
    dataDir: join(dir, 'sessions'),
    fixtureDirs: [dirname(journal)],
  });
  const server = await startServer({
    store,
    port: 0,
    webRoot: webDistDir,
    log: () => {},
  });
  const profile = join(dir, 'profile');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
  });
  try {
    const imported = await importClaudeCode(
      store,
      writeClaudeTranscript(join(dir, 'claude'), importedMessages),
    );
    const importedId = imported.sessions[0];
    if (importedId === undefined) throw new Error('the Claude Code transcript imported nothing');
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    // The bytes on the wire of every script the first load fetches (compressed as served).
    const scripts: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script') {
        scripts.push(request.sizes().then((sizes) => sizes.responseBodySize));
      }
    });
    await page.goto(server.url);
    await page.waitForSelector('.session-list .session-row');
    const scriptKb = (await Promise.all(scripts)).reduce((a, b) => a + b, 0) / 1024;
    page.removeAllListeners('requestfinished');
    const baseline = await heapMb(page);
    const importedOpen = await openSession(page, importedId);
    const firstPaint = await openSession(page, sessionId);
    const tailNodes = await nodeCount(page);
    const openHeap = await heapMb(page);
    const pageTimes: number[] = [];
    for (let i = 0; i < pages; i++) {
      const before = await loadedNodes(page);
      const t0 = performance.now();
      await page.click('[data-action="load-older"]');
      // The window's node count (the list is virtualised: the DOM rows stay bounded).
      await page.waitForFunction(
        (n) =>
          Number(
            (
              globalThis as unknown as {
                document: { querySelector(s: string): { dataset: Record<string, string> } | null };
              }
            ).document.querySelector('.conversation')?.dataset['nodes'],
          ) > n,
        before,
      );
      pageTimes.push(since(t0));
    }
    const pagedNodes = await nodeCount(page);
    const loaded = await loadedNodes(page);
    const pagedElements = await domElements(page);
    const pagedHeap = await heapMb(page);
    const mean = (times: readonly number[]): number =>
      times.reduce((a, b) => a + b, 0) / times.length;
    const meanPage = mean(pageTimes);
    const pageRatio = mean(pageTimes.slice(-5)) / mean(pageTimes.slice(0, 5));
    const note = `${events.toLocaleString('en')}-event session, 50 messages per page`;

    // Append-to-visible: a person's message appended to the open 200k-event session,
    // until its text is in the DOM (a MutationObserver's clock; both clocks are epoch ms).
    await openSession(page, liveId);
    const live = await store.open(liveId);
    const appendTimes: number[] = [];
    for (let i = 0; i < appendRounds; i++) {
      const text = `bench live append ${i}`;
      const seen = page.evaluate(
        (wanted) =>
          new Promise<number>((resolve) => {
            const g = globalThis as unknown as {
              document: { body: { textContent: string | null } };
              MutationObserver: new (cb: () => void) => {
                observe(target: unknown, options: object): void;
                disconnect(): void;
              };
              performance: { timeOrigin: number; now(): number };
            };
            const observer = new g.MutationObserver(() => {
              if (!(g.document.body.textContent ?? '').includes(wanted)) return;
              observer.disconnect();
              resolve(g.performance.timeOrigin + g.performance.now());
            });
            observer.observe(g.document.body, {
              childList: true,
              subtree: true,
              characterData: true,
            });
          }),
        text,
      );
      // The observer is in place before the append.
      await page.evaluate(() => 0);
      const appendedAt = performance.timeOrigin + performance.now();
      await live.append([userMessage(text)]);
      appendTimes.push((await seen) - appendedAt);
    }
    return [
      {
        section: 'web',
        name: 'initial script (compressed)',
        value: scriptKb,
        unit: 'KB',
        note: 'every script of the first load, bytes on the wire; target < 200',
      },
      {
        section: 'web',
        name: 'tail open, imported Claude Code session',
        value: importedOpen,
        unit: 'ms',
        note: `${importedMessages.toLocaleString('en')} transcript messages; target <= 500`,
      },
      { section: 'web', name: 'first tail page rendered', value: firstPaint, unit: 'ms', note },
      { section: 'web', name: 'heap before opening', value: baseline, unit: 'MB' },
      {
        section: 'web',
        name: 'heap after opening',
        value: openHeap,
        unit: 'MB',
        note: `${tailNodes} nodes rendered`,
      },
      {
        section: 'web',
        name: `heap after ${pages} older pages`,
        value: pagedHeap,
        unit: 'MB',
        note: `${pagedNodes} of ${loaded.toLocaleString('en')} loaded nodes rendered`,
      },
      { section: 'web', name: 'load older (mean)', value: meanPage, unit: 'ms' },
      {
        section: 'web',
        name: `DOM elements after ${pages} older pages`,
        value: pagedElements,
        unit: 'elements',
        note: 'the whole document; target <= 5,000',
      },
      {
        section: 'web',
        name: 'older page ratio (last 5 / first 5)',
        value: pageRatio,
        unit: 'x',
        note: `mean of pages ${pages - 4}-${pages} over pages 1-5; target <= 1.2`,
      },
      {
        section: 'web',
        name: 'live append visible p50',
        value: percentile(appendTimes, 50),
        unit: 'ms',
        note: `${appendRounds} appends to the open ${events.toLocaleString('en')}-event session`,
      },
      {
        section: 'web',
        name: 'live append visible max',
        value: Math.max(...appendTimes),
        unit: 'ms',
        note: 'target <= 100',
      },
    ];
  } finally {
    await context.close();
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await webBench()) {
    const note = row.note === undefined ? '' : `  (${row.note})`;
    console.log(`${row.name.padEnd(28)} ${row.value.toFixed(1).padStart(9)} ${row.unit}${note}`);
  }
}
