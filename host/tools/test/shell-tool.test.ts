import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  errorCodes,
  parseBackgroundAck,
  parseShellEnding,
  parseSpillNotice,
  timeoutNotice,
} from '@dsh/card-models/contract';
import { findExecutable } from '../src/shell-tool.js';
import { isProcessAlive } from '../src/index.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Pids printed as `label:PID` lines. */
function pidsIn(text: string): number[] {
  return [...text.matchAll(/pid:(\d+)/g)].map((m) => Number(m[1]));
}

describe('bash (standard mode)', () => {
  it.each([
    { command: 'echo hello', body: 'hello', ending: { kind: 'exit', code: 0 } },
    { command: 'printf "no newline"', body: 'no newline', ending: { kind: 'exit', code: 0 } },
    { command: 'exit 3', body: '', ending: { kind: 'exit', code: 3 } },
    {
      command: 'echo out; echo err >&2; echo out2',
      body: 'out\nerr\nout2',
      ending: { kind: 'exit', code: 0 },
    },
    { command: 'kill -USR1 $$', body: '', ending: { kind: 'signal', signal: 'SIGUSR1' } },
    { command: 'echo "ünïcödé ✓"', body: 'ünïcödé ✓', ending: { kind: 'exit', code: 0 } },
  ])('$command -> body and trailing marker', async ({ command, body, ending }) => {
    const { result, text } = await h.run('bash', { command });
    expect(result.isError).toBe(false);
    expect(result.metaJson).toBe('');
    expect(parseShellEnding(text)).toEqual({ body, ending });
  });

  it('keeps stdout and stderr in arrival order', async () => {
    const command = 'for i in 1 2 3; do echo o$i; sleep 0.05; echo e$i >&2; sleep 0.05; done';
    const { text } = await h.run('bash', { command });
    expect(parseShellEnding(text)?.body).toBe('o1\ne1\no2\ne2\no3\ne3');
  });

  it('runs in workdir relative to cwd', async () => {
    await h.run('bash', { command: 'mkdir -p sub/dir' });
    const { text } = await h.run('bash', { command: 'pwd', workdir: 'sub/dir' });
    expect(parseShellEnding(text)?.body).toBe(`${h.cwd}/sub/dir`);
  });

  it('fails clearly for a missing workdir', async () => {
    const { result, text } = await h.run('bash', { command: 'pwd', workdir: 'nope' });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('not_found');
    expect(text).toContain('nope');
  });

  it('spills output over the limit to a file and names it', async () => {
    const command = 'seq 1 20000';
    const { text } = await h.run('bash', { command });
    const spill = parseSpillNotice(text);
    expect(spill).toBeDefined();
    const head = text.slice(0, text.lastIndexOf('\n'));
    expect(parseShellEnding(head)?.ending).toEqual({ kind: 'exit', code: 0 });
    const full = readFileSync(spill?.path ?? '', 'utf8');
    expect(full.split('\n').filter(Boolean)).toHaveLength(20000);
    expect(spill?.totalBytes).toBe(Buffer.byteLength(full));
    expect(spill?.path.startsWith(h.spillDir)).toBe(true);
    expect(text.length).toBeLessThan(31_000);
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
  });

  it('kills the whole process group on timeout', async () => {
    const command = 'sleep 100 & echo pid:$!; sleep 100 & echo pid:$!; echo pid:$$; wait';
    const { result, text } = await h.run('bash', { command, timeout_ms: 500 });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe(errorCodes.timeout);
    const ending = parseShellEnding(text);
    expect(ending?.ending.kind).toBe('signal');
    expect(ending?.body).toContain(timeoutNotice(500));
    const pids = pidsIn(text);
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });

  it('kills descendants that left the group with setsid on timeout', async () => {
    const command = 'setsid sleep 100 & echo pid:$!; (setsid sleep 100 & echo pid:$!); sleep 100';
    const { result, text } = await h.run('bash', { command, timeout_ms: 500 });
    expect(result.error?.code).toBe(errorCodes.timeout);
    const pids = pidsIn(text);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });

  it('kills what a background job started with setsid on dispose', async () => {
    const { text } = await h.run('bash', {
      command: `setsid sleep 100 & echo $! > ${h.cwd}/bg.pid; sleep 100`,
      background: true,
    });
    expect(parseBackgroundAck(text)).toBeDefined();
    let pid = 0;
    for (let i = 0; i < 100 && pid === 0; i++) {
      await sleep(20);
      pid = Number(readFileSync(`${h.cwd}/bg.pid`, { encoding: 'utf8', flag: 'a+' }).trim());
    }
    expect(isProcessAlive(pid)).toBe(true);
    await h.tools.dispose();
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const command = "trap '' TERM; sh -c \"trap '' TERM; sleep 100\" & echo pid:$!; sleep 100";
    const { text } = await h.run('bash', { command, timeout_ms: 300 });
    expect(parseShellEnding(text)?.ending).toEqual({ kind: 'signal', signal: 'SIGKILL' });
    for (const pid of pidsIn(text)) expect(isProcessAlive(pid)).toBe(false);
  });

  it('kills the process group when the signal aborts', async () => {
    const controller = new AbortController();
    // Abort once both pids are printed: the shell and its background child are running.
    let live = '';
    let bothPrinted = () => {};
    const printed = new Promise<void>((resolve) => (bothPrinted = resolve));
    const running = h.run(
      'bash',
      { command: 'echo pid:$$; sleep 100 & echo pid:$!; wait' },
      {
        signal: controller.signal,
        liveOutput: (text) => {
          live += text;
          if (pidsIn(live).length === 2) bothPrinted();
        },
      },
    );
    // A call that settles first fails below instead of waiting for the test's timeout.
    await Promise.race([printed, running]);
    controller.abort();
    const { result, text } = await running;
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe(errorCodes.interrupted);
    expect(parseShellEnding(text)?.ending.kind).toBe('signal');
    const pids = pidsIn(text);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });

  it('returns only an acknowledgement for background commands', async () => {
    const { result, text } = await h.run('bash', {
      command: 'echo started; sleep 0.2; echo done',
      background: true,
    });
    expect(result.isError).toBe(false);
    const ack = parseBackgroundAck(text);
    expect(ack).toBeDefined();
    expect(ack?.pid).toBeGreaterThan(0);
    for (let i = 0; i < 100 && isProcessAlive(ack?.pid ?? 0); i++) await sleep(50);
    expect(readFileSync(ack?.outputPath ?? '', 'utf8')).toBe('started\ndone\n');
  });

  it('kills background jobs on dispose', async () => {
    const { text } = await h.run('bash', { command: 'sleep 100', background: true });
    const ack = parseBackgroundAck(text);
    expect(isProcessAlive(ack?.pid ?? 0)).toBe(true);
    await h.tools.dispose();
    expect(isProcessAlive(ack?.pid ?? 0)).toBe(false);
  });
});

describe('pwsh', () => {
  it.skipIf(findExecutable('pwsh') !== undefined)('says pwsh is not installed', async () => {
    const { result, text } = await h.run('pwsh', { command: 'Write-Output hi' });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('not_installed');
    expect(text).toContain('pwsh is not installed');
  });

  it.runIf(findExecutable('pwsh') !== undefined)('runs a command with an exit marker', async () => {
    const { text } = await h.run('pwsh', { command: 'Write-Output hi' });
    expect(parseShellEnding(text)).toEqual({ body: 'hi', ending: { kind: 'exit', code: 0 } });
  });

  it('refuses persistent sessions', async () => {
    const { result } = await h.run('pwsh', { command: 'dir', session: 's' });
    expect(result.error?.code).toBe(errorCodes.invalidArguments);
  });
});

describe('bash (standard mode) errors', () => {
  it.each([
    { command: 'if then fi', text: /line 1: syntax error near unexpected token `then'/ },
    { command: 'echo a\nnot_a_command_xyz', text: /line 2: not_a_command_xyz: command not found/ },
  ])('$command keeps bash line numbers', async ({ command, text }) => {
    const ran = await h.run('bash', { command });
    expect(parseShellEnding(ran.text)?.body).toMatch(text);
  });
});
