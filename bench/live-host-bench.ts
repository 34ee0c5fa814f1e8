import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { deriveCard, terminalCardPreview } from '@dsh/card-models';
import { createSessionWindow, type SessionWindow } from '@dsh/client-live';
import { ContentBlockSchema } from '@dsh/gen/content';
import type { SessionEvent } from '@dsh/gen/events';
import { PromptMode, SessionService } from '@dsh/gen/service';
import {
  startFakeOpenAiServer,
  textReply,
  toolReply,
  type FakeOpenAiServer,
} from '@dsh/providers/test-kit';
import { percentile, since, type BenchRow } from './bench-row.js';
import { processCpuMs, startModelHost, type ModelHost } from './model-host.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 10 ms until it holds or `timeoutMs` passed. */
async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A real host, its fake model and a client of it. */
interface Bench {
  readonly dir: string;
  readonly host: ModelHost;
  readonly model: FakeOpenAiServer;
  readonly client: Client<typeof SessionService>;
}

/** Creates a session whose model asks for one `bash` call of `command`, and prompts it. */
async function sessionRunning(bench: Bench, callId: string, command: string, title: string) {
  bench.model.reply(
    toolReply([{ id: callId, name: 'bash', args: JSON.stringify({ command }) }]),
    textReply(['Done.']),
  );
  const { session } = await bench.client.createSession({ cwd: bench.dir, title });
  const sessionId = session?.id ?? '';
  const prompt = () =>
    bench.client.prompt({
      sessionId,
      content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
      mode: PromptMode.QUEUE,
    });
  return { sessionId, prompt };
}

/** Every event of a session (one page of up to 1000 messages holds the bench's). */
async function eventsOf(bench: Bench, sessionId: string): Promise<SessionEvent[]> {
  const page = await bench.client.page({ sessionId, maxMessages: 1000 });
  return page.events.flatMap((e) => (e.event === undefined ? [] : [e.event]));
}

const ended = (window: SessionWindow) =>
  window.state.snapshot.nodes.some((node) => node.kind === 'turn-end');

/**
 * Host CPU while the `dsh serve` process runs a real `bash` command that prints ~1 MB/s
 * for `seconds`, followed by one client-live window in this process: the host process's
 * CPU over the call (its own threads, not the command's, read from /proc), the
 * follower's, the events recorded and the bytes they carry.
 */
async function hostCpuRows(bench: Bench, seconds: number): Promise<BenchRow[]> {
  // 100 KiB every 100 ms, as lines of 99 characters.
  const command = `for i in $(seq 1 ${seconds * 10}); do head -c 102400 /dev/zero | tr '\\0' x | fold -w 99; sleep 0.1; done`;
  const callId = 'call_mb';
  const { sessionId, prompt } = await sessionRunning(bench, callId, command, 'bench 1 MB/s');
  const window = createSessionWindow({ client: bench.client, sessionId });
  try {
    await until(() => window.state.opened, 'the window', 10_000);
    await prompt();
    await until(() => window.state.snapshot.runningCalls.length > 0, 'the call', 10_000);
    const hostCpu = processCpuMs(bench.host.pid);
    const followerCpu = process.cpuUsage();
    const start = performance.now();
    await until(
      () => window.state.snapshot.runningCalls.length === 0,
      'the command',
      seconds * 4000,
    );
    const wallMs = since(start);
    const hostMs = processCpuMs(bench.host.pid) - hostCpu;
    const used = process.cpuUsage(followerCpu);
    await until(() => ended(window), 'the turn end', 10_000);
    const events = await eventsOf(bench, sessionId);
    const deltas = events.flatMap((e) =>
      e.payload.case === 'toolOutput' && e.payload.value.callId === callId ? [e.payload.value] : [],
    );
    const deltaBytes = deltas.reduce((sum, d) => sum + Buffer.byteLength(d.text), 0);
    const label = `${seconds} s at ~1 MB/s`;
    return [
      {
        section: 'live',
        name: `host CPU while a command prints ${label}`,
        value: (hostMs / wallMs) * 100,
        unit: '% of a core',
        note: `a dsh serve process (its threads, not the command), one follower; ${(wallMs / 1000).toFixed(1)} s wall`,
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
        name: `events recorded for the whole session (${label})`,
        value: events.length,
        unit: 'events',
      },
    ];
  } finally {
    window.close();
  }
}

/**
 * Append-to-visible latency of live output deltas: a real command prints a coloured line
 * every 200 ms in the `dsh serve` process; each of `followers` client-live windows over
 * real HTTP in this process, on every new delta, recomputes the running card's preview
 * (what a client does before it draws). Latency runs from the delta's journal time (the
 * host stamps it as it appends) to that moment.
 */
async function visibleLatencyRows(
  bench: Bench,
  followers: number,
  rounds: number,
): Promise<BenchRow[]> {
  const callId = `call_visible_${followers}`;
  const command = `for i in $(seq 1 ${rounds}); do printf '\\033[32m✓\\033[39m test %d passed (%d ms)\\n' $i $((i % 97)); sleep 0.2; done`;
  const title = `bench visible ${followers}`;
  const { sessionId, prompt } = await sessionRunning(bench, callId, command, title);
  const seen: { seq: number; at: number }[] = [];
  const facts = { cwd: bench.dir, home: bench.dir };
  const windows = Array.from({ length: followers }, () => {
    let last = -1;
    return createSessionWindow({
      client: bench.client,
      sessionId,
      onChange: (state) => {
        const tool = state.snapshot.runningCalls.find((t) => t.callId === callId);
        const seq = tool?.live?.seq ?? -1;
        if (tool === undefined || seq === last) return;
        last = seq;
        const card = deriveCard(tool, facts);
        if (card.body.kind === 'terminal') terminalCardPreview(card.body);
        seen.push({ seq, at: Date.now() });
      },
    });
  });
  try {
    await until(() => windows.every((w) => w.state.opened), 'every window open', 60_000);
    await prompt();
    await until(() => windows.every(ended), 'the turn end in every window', rounds * 600 + 60_000);
    const appended = new Map<number, number>();
    for (const event of await eventsOf(bench, sessionId)) {
      if (event.payload.case === 'toolOutput' && event.time !== undefined) {
        appended.set(event.seq, timestampMs(event.time));
      }
    }
    const latencies = seen.flatMap(({ seq, at }) => {
      const time = appended.get(seq);
      return time === undefined ? [] : [at - time];
    });
    const note = `${appended.size} deltas, ${latencies.length} window updates; host in its own process, windows in the bench process`;
    return [
      {
        section: 'live',
        name: `delta append-to-visible p50, ${followers} follower(s)`,
        value: percentile(latencies, 50),
        unit: 'ms',
        note,
      },
      {
        section: 'live',
        name: `delta append-to-visible p99, ${followers} follower(s)`,
        value: percentile(latencies, 99),
        unit: 'ms',
      },
    ];
  } finally {
    for (const window of windows) window.close();
  }
}

/**
 * The host-side live output rows on one real `dsh serve` process: its CPU at 1 MB/s of
 * command output and the append-to-visible latency of deltas for 1 and 100 followers.
 */
export async function liveHostBench(quick: boolean): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-live-'));
  const model = await startFakeOpenAiServer();
  let host: ModelHost | undefined;
  try {
    host = await startModelHost(dir, model.baseUrl);
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    const bench: Bench = { dir, host, model, client };
    const rounds = quick ? 30 : 100;
    return [
      ...(await hostCpuRows(bench, quick ? 3 : 10)),
      ...(await visibleLatencyRows(bench, 1, rounds)),
      ...(await visibleLatencyRows(bench, 100, rounds)),
    ];
  } finally {
    await host?.stop();
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}
