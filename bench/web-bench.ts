import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { webClientDir, webDistDir } from '@dsh/client-web/web-dist';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { since, type BenchRow } from './bench-row.js';
import { longJournal } from './page-bench.js';

const chromiumPath = '/usr/bin/chromium';
const clientDir = webClientDir;
const events = 100_000;
const pages = 10;

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

/**
 * The web client in Debian's Chromium against a real host: time to the first rendered
 * tail page and the page heap after opening a 100k-event session, then after loading
 * 10 older pages. Empty (with a note on stderr) when Chromium is missing.
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
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(server.url);
    await page.waitForSelector('.session-list .session-row');
    const baseline = await heapMb(page);
    const start = performance.now();
    await page.evaluate(
      (id) => ((globalThis as unknown as BrowserGlobals).location.hash = `#/s/${id}`),
      sessionId,
    );
    await page.waitForSelector('.conversation [data-seq]');
    const firstPaint = since(start);
    const tailNodes = await nodeCount(page);
    const openHeap = await heapMb(page);
    const pageTimes: number[] = [];
    for (let i = 0; i < pages; i++) {
      const before = await nodeCount(page);
      const t0 = performance.now();
      await page.click('[data-action="load-older"]');
      await page.waitForFunction(
        (n) =>
          (globalThis as unknown as BrowserGlobals).document.querySelectorAll(
            '.conversation [data-seq]',
          ).length > n,
        before,
      );
      pageTimes.push(since(t0));
    }
    const pagedNodes = await nodeCount(page);
    const pagedHeap = await heapMb(page);
    const meanPage = pageTimes.reduce((a, b) => a + b, 0) / pageTimes.length;
    const note = `${events.toLocaleString('en')}-event session, 50 messages per page`;
    return [
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
        note: `${pagedNodes} nodes rendered`,
      },
      { section: 'web', name: 'load older (mean)', value: meanPage, unit: 'ms' },
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
