import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { deriveCard, terminalCardPreview } from '@dsh/card-models';
import { createSessionWindow, type SessionWindow } from '@dsh/client-live';
import {
  assistantMessage,
  toolCall,
  toolCallBlock,
  toolOutput,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { createJournalStore } from '@dsh/journal-file';
import { dshBin } from '@dsh/cli';
import { startFakeOpenAiServer, textReply, toolReply } from '@dsh/providers/test-kit';
import { startServer } from '@dsh/server';
import { percentile, since, type BenchRow } from './bench-row.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 10 ms until it holds or `timeoutMs` passed. */
async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** The live output length of the running call `callId` in a window, or -1. */
function liveLength(window: SessionWindow, callId: string): number | undefined {
  const tool = window.state.snapshot.runningCalls.find((t) => t.callId === callId);
  return tool === undefined ? undefined : (tool.live?.length ?? -1);
}

/** User plus system CPU milliseconds of process `pid` so far (its threads, not its children). */
function processCpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/PID/stat, after the parenthesised command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** A real `dsh serve` process whose model is the OpenAI-compatible server at `baseUrl`. */
async function startModelHost(dir: string, baseUrl: string) {
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  const config = join(dir, 'config.json');
  await writeFile(config, JSON.stringify({ approvals: { bash: 'allow' } }));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DSH_')) env[key] = value;
  }
  env.HOME = home;
  const args = [
    ...['serve', '--port', '0', '--data-dir', join(dir, 'sessions'), '--config', config],
    ...['--model', 'fake-model', '--base-url', baseUrl, '--api-key', 'k'],
  ];
  const child = spawn(process.execPath, [dshBin, ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const look = (chunk: Buffer): void => {
      text += chunk.toString();
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    void exited.then(() => reject(new Error(`dsh exited before serving: ${text.slice(-2000)}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Host CPU while a real `dsh serve` process runs a real `bash` command that prints ~1 MB/s
 * for `seconds`, asked for by a fake OpenAI-compatible model and followed by one
 * client-live window in this process: the host process's CPU over the call (its own
 * threads, not the command's), the follower's, the events recorded and the bytes they carry.
 */
async function hostCpuRows(seconds: number): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-live-'));
  const model = await startFakeOpenAiServer();
  let host: Awaited<ReturnType<typeof startModelHost>> | undefined;
  let window: SessionWindow | undefined;
  try {
    host = await startModelHost(dir, model.baseUrl);
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    // 100 KiB every 100 ms, as lines of 99 characters.
    const command = `for i in $(seq 1 ${seconds * 10}); do head -c 102400 /dev/zero | tr '\\0' x | fold -w 99; sleep 0.1; done`;
    model.reply(
      toolReply([{ id: 'call_mb', name: 'bash', args: JSON.stringify({ command }) }]),
      textReply(['Done.']),
    );
    const { session } = await client.createSession({ cwd: dir, title: 'bench 1 MB/s' });
    const sessionId = session?.id ?? '';
    window = createSessionWindow({ client, sessionId });
    const follower = window;
    await until(() => follower.state.opened, 'the window', 10_000);
    const before = follower.state.snapshot.endSeq;
    await client.prompt({
      sessionId,
      content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
      mode: PromptMode.QUEUE,
    });
    await until(() => follower.state.snapshot.runningCalls.length > 0, 'the call', 10_000);
    const hostCpu = processCpuMs(host.pid);
    const followerCpu = process.cpuUsage();
    const start = performance.now();
    await until(
      () => follower.state.snapshot.runningCalls.length === 0,
      'the command',
      seconds * 4000,
    );
    const wallMs = since(start);
    const hostMs = processCpuMs(host.pid) - hostCpu;
    const used = process.cpuUsage(followerCpu);
    const pid = host.pid;
    await until(
      () => follower.state.snapshot.nodes.some((n) => n.kind === 'turn-end'),
      'the turn end',
      10_000,
    );
    const events = (await client.page({ sessionId, maxMessages: 1000 })).events.flatMap((e) =>
      e.event === undefined ? [] : [e.event],
    );
    const deltas = events.filter(
      (e) =>
        e.seq >= before && e.payload.case === 'toolOutput' && e.payload.value.callId === 'call_mb',
    );
    const deltaBytes = deltas.reduce(
      (sum, e) =>
        sum + (e.payload.case === 'toolOutput' ? Buffer.byteLength(e.payload.value.text) : 0),
      0,
    );
    const label = `${seconds} s at ~1 MB/s`;
    const wall = `${(wallMs / 1000).toFixed(1)} s wall`;
    return [
      {
        section: 'live',
        name: `host CPU while a command prints ${label}`,
        value: (hostMs / wallMs) * 100,
        unit: '% of a core',
        note: `a dsh serve process (pid ${pid}: its threads, not the command), one follower; ${wall}`,
      },
      {
        section: 'live',
        name: `follower CPU while a command prints ${label}`,
        value: ((used.user + used.system) / 1000 / wallMs) * 100,
        unit: '% of a core',
        note: 'the client-live window (and the fake model) in the bench process',
      },
      {
        section: 'live',
        name: `tool/output events for ${label}`,
        value: deltas.length,
        unit: 'events',
        note: `${(deltaBytes / 1024 / 1024).toFixed(2)} MiB of deltas; the per-call live budget stops them`,
      },
      {
        section: 'live',
        name: `events recorded for the whole turn (${label})`,
        value: (events.at(-1)?.seq ?? before) + 1 - before,
        unit: 'events',
      },
    ];
  } finally {
    window?.close();
    await host?.stop();
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Append-to-visible latency of a live output delta: from `journal.append` of a
 * `tool/output` to the running card's preview recomputed in each of `followers`
 * client-live windows over real HTTP (what a client does before it draws).
 */
async function visibleLatencyRows(followerCounts: readonly number[], rounds: number) {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-visible-'));
  const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  const server = await startServer({ store, port: 0, defaultCwd: dir, log: () => {} });
  const client = createClient(
    SessionService,
    createConnectTransport({ baseUrl: server.url, httpVersion: '1.1' }),
  );
  const rows: BenchRow[] = [];
  try {
    for (const followers of followerCounts) {
      const journal = await store.create({ cwd: dir, title: 'bench visible' });
      const sessionId = journal.header.sessionId;
      const command = { command: 'make test' };
      await journal.append([
        userMessage('run the tests'),
        turnStart(1),
        assistantMessage({ turn: 1 }, [toolCallBlock('c1', 'bash', command)]),
        toolCall('c1', 'bash', command),
      ]);
      const latencies: number[] = [];
      let appendedAt = 0;
      let expected = 0;
      let seen = 0;
      const facts = { cwd: dir, home: dir };
      const windows: SessionWindow[] = Array.from({ length: followers }, () => {
        let last = -1;
        const window: SessionWindow = createSessionWindow({
          client,
          sessionId,
          onChange: (state) => {
            const tool = state.snapshot.runningCalls.find((t) => t.callId === 'c1');
            const length = tool?.live?.length ?? -1;
            if (tool === undefined || length === last) return;
            last = length;
            const card = deriveCard(tool, facts);
            if (card.body.kind === 'terminal') terminalCardPreview(card.body);
            if (length === expected) {
              latencies.push(since(appendedAt));
              seen++;
            }
          },
        });
        return window;
      });
      await until(
        () => windows.every((w) => w.state.opened && liveLength(w, 'c1') === -1),
        'every window open on the running call',
        30_000,
      );
      for (let i = 0; i < rounds; i++) {
        const text = `\x1b[32m✓\x1b[39m test ${i} passed (${i % 97} ms)\n`;
        expected += text.length;
        seen = 0;
        appendedAt = performance.now();
        await journal.append([toolOutput('c1', text)]);
        await until(() => seen === followers, `delta ${i} in every window`, 10_000);
        await sleep(5);
      }
      for (const window of windows) window.close();
      rows.push(
        {
          section: 'live',
          name: `delta append-to-visible p50, ${followers} follower(s)`,
          value: percentile(latencies, 50),
          unit: 'ms',
          note: `${rounds} deltas; card preview recomputed in every window`,
        },
        {
          section: 'live',
          name: `delta append-to-visible p99, ${followers} follower(s)`,
          value: percentile(latencies, 99),
          unit: 'ms',
        },
      );
    }
  } finally {
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The host-side live output rows: CPU at 1 MB/s and append-to-visible latency of deltas. */
export async function liveHostBench(quick: boolean): Promise<BenchRow[]> {
  return [
    ...(await hostCpuRows(quick ? 3 : 10)),
    ...(await visibleLatencyRows([1, 100], quick ? 30 : 100)),
  ];
}
