/**
 * `node host/cli/bin/run-ts.js bench/web-open-profile.ts [RUNS]`: opens the imported
 * 10,000-message Claude Code session RUNS times in Chromium and prints where each open
 * spends its time, with a CPU profile and a trace of the last open: the renderer main
 * thread's task time (wall and thread time, the latter independent of the machine's load),
 * the trace events summed by name and JS self time by file and function (the profile and
 * trace are written to test-artifacts/). A diagnosis tool, not a bench row. Environment:
 * FRESH=1 clears the browser cache before each open (a first visit), YARD=0 skips the
 * in-page yardstick loop (keep it off when reading task times), SETTLE=0 opens at once
 * after the list shows, LONG=1 adds the web bench's 200k-event store, WEB_ROOT serves
 * another build.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { webDistDir } from '@dsh/client-web/web-dist';
import { importClaudeCode } from '@dsh/import';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { writeClaudeTranscript } from './claude-transcript.js';
import { longJournal } from './page-bench.js';

const runs = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'dsh-web-profile-'));
// LONG=1: the web bench's store (the 200k-event fixture and a writable copy of it) beside the import.
const long = process.env['LONG'] === '1' ? await longJournal(200_000) : undefined;
if (long !== undefined) {
  const text = readFileSync(long, 'utf8');
  const cut = text.indexOf('\n');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  writeFileSync(
    join(dir, 'sessions', 'live-200000.jsonl'),
    JSON.stringify({ ...JSON.parse(text.slice(0, cut)), sessionId: 'live-200000' }) +
      text.slice(cut),
  );
}
const store = await createJournalStore({
  dataDir: join(dir, 'sessions'),
  fixtureDirs: long === undefined ? [] : [dirname(long)],
});
const server = await startServer({
  store,
  port: 0,
  webRoot: process.env['WEB_ROOT'] ?? webDistDir,
  log: () => {},
});
const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
});
type G = any; // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  const imported = await importClaudeCode(
    store,
    writeClaudeTranscript(join(dir, 'claude'), 10_000),
  );
  const id = imported.sessions[0]!;
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  await page.waitForSelector('.session-list .session-row');
  const cdp = await page.context().newCDPSession(page);
  const open = async (profile: boolean) => {
    // A fresh page each time: the open is measured cold, as a person's first open is.
    if (process.env['FRESH'] === '1') {
      // A fresh browser profile: no code cache from an earlier load, as in the web bench.
      await page.goto('about:blank');
      const cdpCache = await page.context().newCDPSession(page);
      await cdpCache.send('Network.clearBrowserCache');
      await cdpCache.detach();
    }
    await page.goto(server.url + '#/');
    await page.waitForSelector('.session-list .session-row');
    if (process.env['SETTLE'] !== '0') await page.waitForTimeout(300);
    await page.evaluate(() => (globalThis as G).performance.clearResourceTimings());
    const traceEvents: G[] = [];
    if (profile) {
      cdp.on('Tracing.dataCollected', (d: G) => traceEvents.push(...d.value));
      await cdp.send('Tracing.start', {
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'v8',
            'disabled-by-default-devtools.timeline',
            'blink.user_timing',
          ],
        },
      } as G);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const t0 = performance.now();
    const inPage = (await page.evaluate(`new Promise((resolve) => {
      const g = globalThis;
      const c0 = g.performance.now();
      let x = 0;
      for (let i = 0; i < ${process.env['YARD'] === '0' ? 0 : 20000000}; i++) x = (x * 31 + i) | 0;
      const yard = g.performance.now() - c0;
      const start = g.performance.now();
      g.location.hash = '#/s/${id}';
      function check() {
        if (g.document.querySelectorAll('.conversation [data-seq]').length > 0) {
          const seen = g.performance.now();
          const pageEntry = g.performance.getEntriesByType('resource').find((e) => String(e.name).includes('/Page'));
          resolve({ total: seen - start, fetchStart: (pageEntry?.startTime ?? 0) - start, fetchEnd: (pageEntry?.responseEnd ?? 0) - start, bytes: pageEntry?.encodedBodySize ?? 0, yard, x: x & 1 });
        } else g.requestAnimationFrame(check);
      }
      g.requestAnimationFrame(check);
    })`)) as Record<string, number>;
    const outside = performance.now() - t0;
    let profileOut: unknown;
    if (profile) {
      profileOut = (await cdp.send('Profiler.stop')).profile;
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await done;
      writeFileSync('test-artifacts/open-trace.json', JSON.stringify({ traceEvents }));
      // The page's renderer main thread: of the CrRendererMain threads, the one that ran script.
      const mains = traceEvents.filter(
        (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
      );
      const scriptOn = (m: G) =>
        traceEvents.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'FunctionCall')
          .length;
      const main = mains.sort((a, b) => scriptOn(b) - scriptOn(a))[0];
      const onMain = traceEvents.filter(
        (e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X',
      );
      const sum = (names: string[], key: 'dur' | 'tdur') =>
        onMain.filter((e) => names.includes(e.name)).reduce((a, e) => a + (e[key] ?? 0), 0) / 1000;
      console.log(
        `renderer main thread: tasks ${sum(['RunTask'], 'dur').toFixed(1)} ms wall, ${sum(['RunTask'], 'tdur').toFixed(1)} ms thread time; compile ${sum(['v8.compile', 'v8.compileModule', 'V8.CompileCode'], 'tdur').toFixed(1)} ms thread, evaluate ${sum(['v8.evaluateModule', 'EvaluateScript'], 'tdur').toFixed(1)} ms thread`,
      );
      const byName = new Map<string, number>();
      for (const e of traceEvents)
        if (e.ph === 'X' && e.dur) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur);
      console.log(
        'trace (X events, summed, may nest):\n' +
          [...byName]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([k, v]) => `${(v / 1000).toFixed(1).padStart(8)} ms ${k}`)
            .join('\n'),
      );
    }
    return { ...inPage, outside, profileOut };
  };
  const all: G[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await open(i === runs - 1);
    const { profileOut, ...rest } = r;
    all.push(r as G);
    console.log(
      JSON.stringify(
        Object.fromEntries(
          Object.entries(rest).map(([k, v]) => [k, Math.round(Number(v) * 10) / 10]),
        ),
      ),
    );
    if (profileOut) {
      writeFileSync('test-artifacts/open.cpuprofile', JSON.stringify(profileOut));
      summarise(profileOut as G);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const m = (k: string) => median(all.map((r) => r[k]));
  console.log(
    `median open ${m('total').toFixed(0)} ms, fetch ${(m('fetchEnd') - m('fetchStart')).toFixed(0)} ms, yardstick ${m('yard').toFixed(0)} ms, open / yardstick ${median(all.map((r) => r.total / r.yard)).toFixed(2)}`,
  );
} finally {
  await context.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

function summarise(profile: G): void {
  const byId = new Map<number, G>(profile.nodes.map((n: G) => [n.id, n]));
  const self = new Map<number, number>();
  const deltas: number[] = profile.timeDeltas;
  profile.samples.forEach((s: number, i: number) =>
    self.set(s, (self.get(s) ?? 0) + (deltas[i] ?? 0)),
  );
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [nid, us] of self) {
    const cf = byId.get(nid).callFrame;
    const key = `${cf.functionName || '(anon)'} ${String(cf.url).split('/').pop()}:${cf.lineNumber}:${cf.columnNumber}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    const file = String(cf.url).split('/').pop() || cf.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${(v / 1000).toFixed(1).padStart(7)} ms  ${k}`)
      .join('\n');
  console.log('self time by file:\n' + top(byFile, 12));
  console.log('self time by function:\n' + top(byFn, 40));
}
