import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { webDistDir } from '@dsh/client-web/web-dist';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { percentile, type BenchRow } from './bench-row.js';
import { longJournal } from './page-bench.js';

const chromiumPath = '/usr/bin/chromium';
const events = 100_000;

/** The page's globals, typed for callbacks that run in the browser (no DOM lib here). */
type Scroller = { scrollTop: number; scrollHeight: number; clientHeight: number };
type BrowserGlobals = {
  document: {
    querySelector(selector: string): (Scroller & { dataset: Record<string, string> }) | null;
    getElementsByTagName(name: string): { length: number };
  };
  requestAnimationFrame(callback: (time: number) => void): void;
};

/** Used JS heap of the page after a full garbage collection, in MB. */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN) / 1048576;
}

const loadedNodes = (page: Page): Promise<number> =>
  page.$eval('.conversation', (el) =>
    Number((el as unknown as { dataset: Record<string, string> }).dataset['nodes']),
  );

/**
 * Scrolling through a long loaded window in Debian's Chromium: older pages of a
 * 100k-event session are loaded until `targetNodes` conversation nodes are in the
 * window, then the conversation is scrolled from the top to the bottom half a screen
 * per frame. Rows: frame time p50/p95/max while scrolling, the DOM element count at the
 * end (bounded by the virtual list) and the heap. Empty when Chromium is missing.
 */
export async function webScrollBench(targetNodes = 10_000): Promise<BenchRow[]> {
  if (!existsSync(chromiumPath) || !existsSync(join(webDistDir, 'index.html'))) {
    process.stderr.write('web scroll bench skipped: needs /usr/bin/chromium and client-web/dist\n');
    return [];
  }
  const journal = await longJournal(events);
  const dir = mkdtempSync(join(tmpdir(), 'dsh-web-scroll-'));
  const store = await createJournalStore({
    dataDir: join(dir, 'sessions'),
    fixtureDirs: [dirname(journal)],
  });
  const server = await startServer({ store, port: 0, webRoot: webDistDir, log: () => {} });
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
  });
  try {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${server.url}/#/s/long-${events}`);
    await page.waitForSelector('.conversation [data-seq]');
    while (
      (await loadedNodes(page)) < targetNodes &&
      (await page.locator('[data-action="load-older"]').count()) > 0
    ) {
      const before = await loadedNodes(page);
      await page.click('[data-action="load-older"]');
      await page.waitForFunction(
        (n) =>
          Number(
            (globalThis as unknown as BrowserGlobals).document.querySelector('.conversation')
              ?.dataset['nodes'],
          ) > n,
        before,
      );
    }
    const nodes = await loadedNodes(page);
    const frames = await page.evaluate(async () => {
      const g = globalThis as unknown as BrowserGlobals;
      const el = g.document.querySelector('.conversation');
      if (el === null) return [];
      el.scrollTop = 0;
      // Inline promises: a named helper here would be rewritten by the bench's loader.
      const times: number[] = [];
      let last = await new Promise<number>((resolve) => g.requestAnimationFrame(resolve));
      for (let i = 0; i < 5_000 && el.scrollTop + el.clientHeight < el.scrollHeight - 2; i++) {
        el.scrollTop += el.clientHeight / 2;
        const now = await new Promise<number>((resolve) => g.requestAnimationFrame(resolve));
        times.push(now - last);
        last = now;
      }
      return times;
    });
    const elements = await page.evaluate(
      () => (globalThis as unknown as BrowserGlobals).document.getElementsByTagName('*').length,
    );
    const heap = await heapMb(page);
    const note = `${nodes.toLocaleString('en')} nodes loaded, ${frames.length} frames scrolled`;
    return [
      {
        section: 'web-scroll',
        name: 'scroll frame p50',
        value: percentile(frames, 50),
        unit: 'ms',
        note,
      },
      {
        section: 'web-scroll',
        name: 'scroll frame p95',
        value: percentile(frames, 95),
        unit: 'ms',
      },
      { section: 'web-scroll', name: 'scroll frame max', value: Math.max(...frames), unit: 'ms' },
      {
        section: 'web-scroll',
        name: 'DOM elements after scrolling',
        value: elements,
        unit: 'elements',
      },
      { section: 'web-scroll', name: 'heap after scrolling', value: heap, unit: 'MB' },
    ];
  } finally {
    await context.close();
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = Number(process.argv[2] ?? 10_000);
  for (const row of await webScrollBench(target)) {
    const note = row.note === undefined ? '' : `  (${row.note})`;
    console.log(`${row.name.padEnd(30)} ${row.value.toFixed(1).padStart(9)} ${row.unit}${note}`);
  }
}
