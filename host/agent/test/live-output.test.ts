import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, ToolOutput } from '@dsh/gen/events';
import { encodeEventLine, type EventPayload } from '@dsh/journal';
import {
  createRunCodeTool,
  createShellTool,
  createTerminalSendTool,
  ShellSessions,
  type Tool,
} from '@dsh/tools';
import { textReply, toolReply } from '@dsh/providers/test-kit';
import { createLiveOutput, liveOutputLimits, type LiveOutputLimits } from '../src/index.js';
import { payloadOf, startHarness, type Harness } from './harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The deltas `createLiveOutput` emits, as (text, truncated) pairs. */
function collect(limits: Partial<LiveOutputLimits> = {}) {
  const out: ToolOutput[] = [];
  const live = createLiveOutput(
    'c1',
    (payload: EventPayload) => {
      if (payload.case === 'toolOutput') out.push(payload.value);
    },
    { ...liveOutputLimits, ...limits },
  );
  return { live, out, pairs: () => out.map((d) => [d.text, d.truncated] as const) };
}

describe('createLiveOutput()', () => {
  it.each<{
    name: string;
    limits: Partial<LiveOutputLimits>;
    writes: string[];
    expected: (readonly [string, boolean])[];
  }>([
    {
      name: 'coalesces writes until close',
      limits: {},
      writes: ['a', 'b', 'c'],
      expected: [['abc', false]],
    },
    {
      name: 'records at the chunk size at once',
      limits: { chunkBytes: 4 },
      writes: ['ab', 'cd', 'e'],
      expected: [
        ['abcd', false],
        ['e', false],
      ],
    },
    {
      name: 'cuts at the byte budget on a character boundary and stops',
      limits: { chunkBytes: 2, budgetBytes: 4 },
      writes: ['ab', 'cé', 'z'],
      expected: [
        ['ab', false],
        ['c', true],
      ],
    },
    {
      name: 'stops at the event budget',
      limits: { chunkBytes: 1, maxEvents: 3 },
      writes: ['a', 'b', 'c', 'd'],
      expected: [
        ['a', false],
        ['b', false],
        ['c', true],
      ],
    },
    {
      name: 'says truncated even when the cut leaves no text',
      limits: { chunkBytes: 1, budgetBytes: 1 },
      writes: ['a', '€'],
      expected: [
        ['a', false],
        ['', true],
      ],
    },
  ])('$name', ({ limits, writes, expected }) => {
    const { live, pairs } = collect(limits);
    for (const text of writes) live.write(text);
    live.close();
    live.write('after close');
    live.close();
    expect(pairs()).toEqual(expected);
  });

  it('records what waited once the interval passed', async () => {
    const { live, pairs } = collect({ minIntervalMs: 20 });
    live.write('line 1\n');
    expect(pairs()).toEqual([]);
    await sleep(80);
    expect(pairs()).toEqual([['line 1\n', false]]);
    live.write('line 2\n');
    live.close();
    expect(pairs()).toEqual([
      ['line 1\n', false],
      ['line 2\n', false],
    ]);
  });
});

let h: Harness | undefined;
let shells: ShellSessions | undefined;
afterEach(async () => {
  await h?.close();
  await shells?.dispose();
  h = shells = undefined;
});

/** 50 lines in bursts of 5, 250 ms apart (~2.5 s): coalescing must merge each burst. */
const lines50 =
  'for i in $(seq 1 50); do echo line $i; if [ $((i % 5)) -eq 0 ]; then sleep 0.25; fi; done';

/** The deltas of `callId` in seq order and the seq of its settlement. */
function deltasOf(events: readonly SessionEvent[], callId: string): SessionEvent[] {
  return events.filter((e) => e.payload.case === 'toolOutput' && e.payload.value.callId === callId);
}

function joined(deltas: readonly SessionEvent[]): string {
  return deltas.map((e) => payloadOf(e, 'toolOutput').text).join('');
}

async function runOne(tools: Tool[], name: string, args: object) {
  const harness = await startHarness({
    tools,
    approvals: { bash: 'allow', terminal_send: 'allow' },
  });
  h = harness;
  harness.server.reply(
    toolReply([{ id: 'call_live', name, args: JSON.stringify(args) }]),
    textReply(['Done.']),
  );
  const seen = { delta: 0, result: 0 };
  void harness
    .waitFor((e) => e.payload.case === 'toolOutput')
    .then(() => (seen.delta = Date.now()));
  void harness
    .waitFor((e) => e.payload.case === 'toolResult')
    .then(() => (seen.result = Date.now()));
  await harness.prompt('run it');
  await harness.runtime.idle(harness.sessionId);
  return { events: await harness.events(), seen, harness };
}

describe('live output through the agent runtime', () => {
  it('records a standard command’s output while it runs, before its unchanged result', async () => {
    shells = new ShellSessions();
    const { events, seen } = await runOne([createShellTool('bash', shells)], 'bash', {
      command: lines50,
    });
    const deltas = deltasOf(events, 'call_live');
    const result = events.findIndex((e) => e.payload.case === 'toolResult');
    const expected = Array.from({ length: 50 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(joined(deltas)).toBe(expected);
    // Coalesced: far fewer deltas than lines, yet many while the command ran (~2.5 s).
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.length).toBeLessThan(50);
    expect(seen.result - seen.delta).toBeGreaterThan(1000);
    expect(deltas.every((e) => events.indexOf(e) < result)).toBe(true);
    expect(payloadOf(events[result], 'toolResult').content[0]?.block.value).toMatchObject({
      text: `${expected}[exit code: 0]`,
    });
    expect(deltas.every((e) => payloadOf(e, 'toolOutput').truncated === false)).toBe(true);
  });

  it('keeps a carriage-return progress bar as the program wrote it', async () => {
    shells = new ShellSessions();
    const command =
      "for i in 10 20 30 40 50 60 70 80 90 100; do printf '\\rprogress %3d%%' $i; sleep 0.05; done; echo";
    const { events } = await runOne([createShellTool('bash', shells)], 'bash', { command });
    const text = joined(deltasOf(events, 'call_live'));
    expect(text).toContain('\rprogress  10%');
    expect(text.endsWith('\rprogress 100%\n')).toBe(true);
  });

  it('streams a persistent shell command without its end marker', async () => {
    shells = new ShellSessions();
    const { events } = await runOne([createShellTool('bash', shells)], 'bash', {
      command: 'for i in 1 2 3; do echo step $i; sleep 0.2; done',
      session: 'dev',
    });
    const deltas = deltasOf(events, 'call_live');
    expect(joined(deltas)).toBe('step 1\nstep 2\nstep 3\n');
    expect(deltas.length).toBeGreaterThan(1);
  });

  it('streams terminal_send in the foreground', async () => {
    shells = new ShellSessions();
    const { events } = await runOne([createTerminalSendTool(shells)], 'terminal_send', {
      session: 'term',
      input: 'for i in 1 2 3; do echo tick $i; sleep 0.2; done\n',
    });
    expect(joined(deltasOf(events, 'call_live'))).toBe('tick 1\ntick 2\ntick 3\n');
  });

  it('gives run_code sub-calls their own deltas, before their settlement', async () => {
    shells = new ShellSessions();
    const code = "await tools.bash({command: 'echo one; sleep 0.2; echo two'}); return 'ok';";
    const { events } = await runOne(
      [createRunCodeTool(), createShellTool('bash', shells)] as ReturnType<
        typeof createShellTool
      >[],
      'run_code',
      { code, description: 'two lines' },
    );
    expect(deltasOf(events, 'call_live')).toEqual([]);
    const sub = deltasOf(events, 'call_live.1');
    expect(joined(sub)).toBe('one\ntwo\n');
    const settled = events.findIndex((e) => e.payload.case === 'codeDispatch');
    expect(sub.every((e) => events.indexOf(e) < settled)).toBe(true);
  });

  it('never sends deltas to the model', async () => {
    shells = new ShellSessions();
    const { harness, events } = await runOne([createShellTool('bash', shells)], 'bash', {
      command: "printf 'v%sible\\n' is",
    });
    expect(joined(deltasOf(events, 'call_live'))).toBe('visible\n');
    const request = JSON.stringify(harness.server.requests.at(-1));
    expect(request).toContain('visible\\n[exit code: 0]');
    expect(request.match(/visible/g)).toHaveLength(1);
  });

  it('keeps the tail page over a call that printed 50 MB bounded by the live budget', async () => {
    shells = new ShellSessions();
    const command = "head -c 50000000 /dev/zero | tr '\\0' x | fold -w 99";
    const { events, harness } = await runOne([createShellTool('bash', shells)], 'bash', {
      command,
    });
    const deltas = deltasOf(events, 'call_live');
    const page = await harness.journal.page(undefined, 50);
    const bytes = page.events.reduce((sum, e) => sum + Buffer.byteLength(encodeEventLine(e)), 0);
    const onPage = page.events.filter((e) => e.payload.case === 'toolOutput');
    // The figures the journal README quotes.
    console.log(
      `50 MB command: ${deltas.length} deltas; tail page ${page.events.length} events, ${bytes} bytes`,
    );
    expect(onPage).toHaveLength(deltas.length);
    expect(deltas.length).toBeLessThanOrEqual(liveOutputLimits.maxEvents);
    const last = deltas.at(-1);
    expect(last && payloadOf(last, 'toolOutput').truncated).toBe(true);
    expect(joined(deltas).length).toBeLessThanOrEqual(liveOutputLimits.budgetBytes);
    // Live budget plus per-event framing plus the spilled (tool-limited) result.
    expect(bytes).toBeLessThan(liveOutputLimits.budgetBytes + deltas.length * 300 + 200_000);
  }, 60_000);
});
