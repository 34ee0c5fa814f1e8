import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createSessionClient, createTuiApp } from '@dsh/client-tui';
import { chunk, turnStart, userMessage } from '@dsh/fixtures';
import { BlockType } from '@dsh/gen/content';
import { createJournalStore } from '@dsh/journal-file';
import { startServer } from '@dsh/server';
import { percentile, since, type BenchRow } from './bench-row.js';
import { longJournal } from './page-bench.js';

const root = join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Kernel clock ticks per second (`getconf CLK_TCK`; 100 on Linux). */
const ticksPerSecond = 100;

/** CPU seconds (user + system) a process has used, from /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** Resident memory of a process in MB, from /proc/PID/status. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** `dsh tui` in a detached tmux on its own socket: its process id, screen and keys. */
function startTui(url: string, sessionId: string, cols: number, rows: number) {
  const socket = `dsh-bench-tui-${process.pid}-${Date.now()}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-x',
    String(cols),
    '-y',
    String(rows),
    `cd ${root} && exec env TERM=xterm-256color node host/cli/bin/dsh.js tui --host ${url} --session ${sessionId}`,
  );
  const pid = Number(tmux('display-message', '-p', '-t', '0', '#{pane_pid}').trim());
  const screen = () => tmux('capture-pane', '-p', '-t', '0');
  return {
    pid,
    screen,
    keys: (...keys: string[]) => void tmux('send-keys', '-t', '0', ...keys),
    async waitFor(test: (screen: string) => boolean, what: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (test(screen())) return;
        await sleep(50);
      }
      throw new Error(`timed out waiting for ${what}; the screen was:\n${screen()}`);
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}

type Tui = ReturnType<typeof startTui>;

/**
 * CPU of the TUI process while it follows an answer streamed at 30 chunks/s, in equal
 * windows: flat means each chunk costs the same however long the message has grown.
 */
async function streamingRows(
  store: Awaited<ReturnType<typeof createJournalStore>>,
  url: string,
  windowSeconds: number,
  windows: number,
): Promise<BenchRow[]> {
  const journal = await store.create({ cwd: root, title: 'bench streaming', model: 'demo' });
  await journal.append([userMessage('write a long answer'), turnStart(1)]);
  const tui = startTui(url, journal.header.sessionId, 120, 40);
  try {
    await tui.waitFor((s) => s.includes('write a long answer'), 'the session');
    const at = { turn: 1 };
    await journal.append([
      chunk(at, {
        case: 'blockStart',
        value: { $typeName: 'dsh.session.v1.BlockStart', index: 0, blockType: BlockType.TEXT },
      }),
    ]);
    const shares: number[] = [];
    let n = 0;
    for (let w = 0; w < windows; w++) {
      const cpu = cpuSeconds(tui.pid);
      const start = performance.now();
      while (since(start) < windowSeconds * 1000) {
        const text =
          n % 12 === 11
            ? `\n\n## Part ${n}\n\n`
            : `word ${n} with **bold** and \`code\` in a sentence that goes on, `;
        n++;
        await journal.append([
          chunk(at, {
            case: 'textDelta',
            value: { $typeName: 'dsh.session.v1.TextDelta', index: 0, text },
          }),
        ]);
        await sleep(1000 / 30);
      }
      shares.push(((cpuSeconds(tui.pid) - cpu) / (since(start) / 1000)) * 100);
    }
    return [
      ...shares.map((share, i) => ({
        section: 'tui',
        name: `CPU following a 30 chunks/s answer, ${windowSeconds} s window ${i + 1}/${windows}`,
        value: share,
        unit: '% of a core',
        note: i === 0 ? 'the `dsh tui` process in tmux, 120x40' : '',
      })),
      {
        section: 'tui',
        name: 'streaming CPU, last window / first',
        value: (shares.at(-1) ?? Number.NaN) / (shares[0] ?? Number.NaN),
        unit: 'x',
        note: `${n} chunks; flat is 1`,
      },
    ];
  } finally {
    tui.kill();
  }
}

/** Presses `g` (top) in the conversation once per older page, each after the last loaded. */
async function loadOlderPages(tui: Tui, pages: number): Promise<number> {
  let loaded = 0;
  for (; loaded < pages; loaded++) {
    const before = tui.screen();
    tui.keys('g');
    try {
      await tui.waitFor(
        (s) => s !== before && !s.includes('loading older'),
        `older page ${loaded + 1}`,
        10_000,
      );
      // The selection moves before the page is asked for: wait for that page too.
      await sleep(300);
      await tui.waitFor((s) => !s.includes('loading older'), `older page ${loaded + 1}`);
    } catch {
      break;
    }
  }
  return loaded;
}

/**
 * Resident memory once the TUI has collected: it runs a full collection a second after a
 * session opens and after paging pauses (and another a second later), so the figure is
 * taken 3 s after the last key and then sampled every 500 ms until two samples agree
 * within 1% (at most 10 s more).
 */
async function settledRssMb(pid: number): Promise<number> {
  await sleep(3000);
  let last = rssMb(pid);
  for (let i = 0; i < 20; i++) {
    await sleep(500);
    const now = rssMb(pid);
    if (Math.abs(now - last) <= last * 0.01) return now;
    last = now;
  }
  return last;
}

/** One TUI's settled RSS (MB) after opening, after the older pages and after End. */
interface MemoryRun {
  readonly opened: number;
  readonly paged: number;
  readonly returned: number;
  readonly loaded: number;
}

/** Opens `sessionId` in a fresh TUI, pages `pages` older pages, then presses End. */
async function memoryRun(url: string, sessionId: string, pages: number): Promise<MemoryRun> {
  const tui = startTui(url, sessionId, 120, 40);
  try {
    await tui.waitFor((s) => s.includes('following'), 'the long session', 60_000);
    const opened = await settledRssMb(tui.pid);
    tui.keys('Tab'); // composer -> conversation
    await tui.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    const loaded = await loadOlderPages(tui, pages);
    const paged = await settledRssMb(tui.pid);
    // End follows the bottom again: the live window reopens at its tail.
    tui.keys('End');
    await tui.waitFor((s) => s.includes('following'), 'the bottom followed again');
    const returned = await settledRssMb(tui.pid);
    return { opened, paged, returned, loaded };
  } finally {
    tui.kill();
  }
}

/**
 * Resident memory of the TUI process after opening a 100k-event session, after paging
 * `pages` older pages and after End follows the bottom again, in `runs` fresh processes:
 * the target is at most 1.2x the opening figure while paged far back, in every run (the
 * row is the worst run), the pages far from the viewport being released.
 */
async function memoryRows(
  url: string,
  sessionId: string,
  events: number,
  pages: number,
  runs: number,
): Promise<BenchRow[]> {
  const results: MemoryRun[] = [];
  for (let run = 0; run < runs; run++) results.push(await memoryRun(url, sessionId, pages));
  const worst = (ratio: (r: MemoryRun) => number) => Math.max(...results.map(ratio));
  const first = results[0];
  const loaded = Math.min(...results.map((r) => r.loaded));
  const ratios = (pick: (r: MemoryRun) => number) =>
    results.map((r) => (pick(r) / r.opened).toFixed(3)).join(', ');
  return [
    {
      section: 'tui-memory',
      name: `RSS after opening a ${events.toLocaleString('en-US')}-event session`,
      value: first?.opened ?? Number.NaN,
      unit: 'MB',
      note: `run 1 of ${runs}; each figure after the TUI's own full collection`,
    },
    {
      section: 'tui-memory',
      name: `RSS after ${loaded} older pages`,
      value: first?.paged ?? Number.NaN,
      unit: 'MB',
      note: 'run 1',
    },
    {
      section: 'tui-memory',
      name: `RSS after ${loaded} older pages / after opening, worst of ${runs}`,
      value: worst((r) => r.paged / r.opened),
      unit: 'x',
      note: `target <= 1.2; runs: ${ratios((r) => r.paged)}`,
    },
    {
      section: 'tui-memory',
      name: `RSS after ${loaded} older pages and End / after opening, worst of ${runs}`,
      value: worst((r) => r.returned / r.opened),
      unit: 'x',
      note: `runs: ${ratios((r) => r.returned)}`,
    },
  ];
}

/**
 * Resize redraw time of the TUI (in this process, drawing to a sink) with about `events`
 * events in its window: from the terminal's resize event to the frame written.
 */
async function resizeRows(url: string, sessionId: string, events: number): Promise<BenchRow[]> {
  let columns = 120;
  let rows = 40;
  // Getters defined on the stream itself (Object.assign would copy their first values):
  // the terminal's size is read again at each resize.
  const output = Object.defineProperties(
    new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
    {
      isTTY: { value: true },
      columns: { get: () => columns },
      rows: { get: () => rows },
    },
  ) as Writable & { isTTY: true; columns: number; rows: number };
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
  const app = createTuiApp({
    client: createSessionClient(url),
    hostLabel: 'bench',
    input,
    output,
    colorDepth: 256,
    mouse: false,
    sessionId,
  });
  try {
    const window = () => app.state.open?.window;
    const deadline = Date.now() + 60_000;
    while (!(window()?.state.opened ?? false)) {
      if (Date.now() > deadline) throw new Error('the session did not open');
      await sleep(20);
    }
    let loaded = 0;
    const count = () => {
      const snapshot = window()?.state.snapshot;
      return snapshot === undefined ? 0 : snapshot.endSeq - snapshot.firstSeq;
    };
    while (count() < events && (window()?.state.hasMore ?? false) && loaded < 200) {
      await window()?.loadOlder();
      loaded++;
    }
    const times: number[] = [];
    // CPU of this process (the host in it is idle meanwhile): less load-dependent than time.
    const cpus: number[] = [];
    const sizes = [
      [80, 24],
      [200, 50],
      [100, 30],
      [160, 45],
    ] as const;
    for (let i = 0; i < 12; i++) {
      const [c, r] = sizes[i % sizes.length] as readonly [number, number];
      const draws = app.renders;
      columns = c;
      rows = r;
      const start = performance.now();
      const cpu = process.cpuUsage();
      output.emit('resize');
      while (app.renders === draws) await new Promise((resolve) => setImmediate(resolve));
      times.push(since(start));
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
      await sleep(50);
    }
    return [
      {
        section: 'tui-resize',
        name: `resize redraw p50, ${count().toLocaleString('en-US')} events loaded`,
        value: percentile(times, 50),
        unit: 'ms',
        note: 'resize event to frame written, no full clear',
      },
      { section: 'tui-resize', name: 'resize redraw max', value: Math.max(...times), unit: 'ms' },
      {
        section: 'tui-resize',
        name: 'resize redraw CPU p50',
        value: percentile(cpus, 50),
        unit: 'ms',
        note: 'user + system CPU of the bench process over the same span',
      },
      {
        section: 'tui-resize',
        name: 'resize redraw CPU max',
        value: Math.max(...cpus),
        unit: 'ms',
      },
    ];
  } finally {
    app.close();
  }
}

/** A host on a free port serving a long session, and its store (to create more in). */
interface LongSessionHost {
  readonly url: string;
  readonly sessionId: string;
  readonly events: number;
  readonly store: Awaited<ReturnType<typeof createJournalStore>>;
}

/** A 100k-event session (10k with `--quick`) served by a host on a free port, for `run`. */
async function withLongSession<T>(
  quick: boolean,
  run: (host: LongSessionHost) => Promise<T>,
): Promise<T> {
  const events = quick ? 10_000 : 100_000;
  const path = await longJournal(events);
  const dir = mkdtempSync(join(tmpdir(), 'dsh-tui-bench-'));
  const store = await createJournalStore({
    dataDir: join(dir, 'sessions'),
    fixtureDirs: [dirname(path)],
  });
  const server = await startServer({ store, port: 0, defaultCwd: dir, log: () => {} });
  try {
    return await run({ url: server.url, sessionId: `long-${events}`, events, store });
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Empty, with a note on stderr, when tmux is missing. */
function hasTmux(): boolean {
  if (spawnSync('tmux', ['-V']).status === 0) return true;
  process.stderr.write('tui bench skipped: install the Debian package `tmux`\n');
  return false;
}

/** The terminal client's CPU while it follows a streamed answer (section `tui`). */
export async function tuiBench(quick: boolean): Promise<BenchRow[]> {
  if (!hasTmux()) return [];
  return withLongSession(quick, (host) => streamingRows(host.store, host.url, quick ? 3 : 8, 3));
}

/** The terminal client's memory after paging a 100k-event session (section `tui-memory`). */
export async function tuiMemoryBench(quick: boolean): Promise<BenchRow[]> {
  if (!hasTmux()) return [];
  return withLongSession(quick, (host) =>
    memoryRows(host.url, host.sessionId, host.events, quick ? 5 : 20, quick ? 1 : 3),
  );
}

/** The terminal client's resize redraw with ~12k events loaded (section `tui-resize`). */
export async function tuiResizeBench(quick: boolean): Promise<BenchRow[]> {
  return withLongSession(quick, (host) =>
    resizeRows(host.url, host.sessionId, quick ? 5_000 : 12_000),
  );
}
