import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderTerminalOutput } from '@dsh/card-models';
import {
  parseBackgroundAck,
  parseShellEnding,
  parseSpillNotice,
  terminalSendAck,
  timeoutNotice,
} from '@dsh/card-models/contract';
import { expect } from 'vitest';
import { bodyOf, type CardCase } from './card-case.js';

const pwshInstalled = spawnSync('pwsh', ['-Version']).error === undefined;

/** Terminal fields every settled standard-shell card of these cases shares. */
const standard = { kind: 'terminal', tool: 'bash', description: undefined, session: undefined };

/** bash, pwsh and terminal_send: foreground, background, persistent shell, spill, timeout. */
export const shellCases: CardCase[] = [
  {
    name: 'foreground command with a non-zero exit',
    tool: 'bash',
    args: { command: 'echo hello; exit 3', description: 'Say hello' },
    running: 'terminal',
    settled: 'terminal',
    errorCode: '',
    check: (run, { h }) => {
      expect(run.text).toBe('hello\n[exit code: 3]');
      expect(run.runningCard.body).toEqual({
        ...standard,
        command: 'echo hello; exit 3',
        description: 'Say hello',
        cwd: h.cwd,
        displayCwd: h.cwd,
        state: 'running',
        background: false,
        output: undefined,
        ending: undefined,
        timedOut: false,
      });
      expect(run.card.body).toEqual({
        ...standard,
        command: 'echo hello; exit 3',
        description: 'Say hello',
        cwd: h.cwd,
        displayCwd: h.cwd,
        state: 'ok',
        background: false,
        output: 'hello',
        ending: { kind: 'exit', code: 3 },
        timedOut: false,
      });
      expect(run.card.row).toMatchObject({ title: 'Bash', kind: 'bash', state: 'ok' });
      expect(run.card.status).toEqual({ state: 'error', label: 'failed' });
    },
  },
  {
    name: 'foreground command in a workdir, with colours',
    tool: 'bash',
    args: { command: "pwd; printf '\\033[31mred\\033[0m\\n'", workdir: 'sub' },
    setup: ({ h }) => {
      mkdirSync(join(h.cwd, 'sub'), { recursive: true });
    },
    running: 'terminal',
    settled: 'terminal',
    errorCode: '',
    check: (run, { h }) => {
      const body = bodyOf(run, 'terminal');
      const sub = join(h.cwd, 'sub');
      expect(body).toMatchObject({ cwd: sub, displayCwd: sub, ending: { kind: 'exit', code: 0 } });
      expect(body.output).toBe(`${sub}\n\u001b[31mred\u001b[0m`);
      const lines = renderTerminalOutput(body.output ?? '');
      expect(lines.map((line) => line.text)).toEqual([sub, 'red']);
      expect(lines[1]?.spans).toEqual([{ start: 0, end: 3, fg: 1 }]);
    },
  },
  {
    name: 'explicit background launch',
    tool: 'bash',
    args: { command: 'echo bg-done', background: true },
    running: 'terminal',
    settled: 'terminal',
    errorCode: '',
    check: async (run, { h }) => {
      const ack = parseBackgroundAck(run.text);
      expect(ack?.jobId).toMatch(/^bg\d+$/);
      expect(dirname(ack?.outputPath ?? '')).toBe(h.spillDir);
      expect(run.runningCard.body).toMatchObject({ state: 'running', background: true });
      expect(run.card.body).toEqual({
        ...standard,
        command: 'echo bg-done',
        cwd: h.cwd,
        displayCwd: h.cwd,
        state: 'ok',
        background: true,
        output: undefined,
        ending: undefined,
        timedOut: false,
      });
      for (let i = 0; i < 100 && !logHas(ack?.outputPath ?? '', 'bg-done'); i++) await sleep(50);
      expect(readFileSync(ack?.outputPath ?? '', 'utf8')).toBe('bg-done\n');
    },
  },
  {
    name: 'persistent shell: a terminal while running, Generic once settled',
    tool: 'bash',
    args: { command: 'mkdir -p keep && cd keep && pwd', session: 'contract-s1' },
    running: 'terminal',
    settled: 'generic',
    errorCode: '',
    check: (run, { h }) => {
      expect(run.runningCard.body).toEqual({
        kind: 'terminal',
        tool: 'bash',
        command: 'mkdir -p keep && cd keep && pwd',
        description: undefined,
        cwd: undefined,
        displayCwd: undefined,
        session: 'contract-s1',
        state: 'running',
        background: false,
        output: undefined,
        ending: undefined,
        timedOut: false,
      });
      expect(run.text).toBe(join(h.cwd, 'keep'));
      expect(run.card.row.resultText).toBe(join(h.cwd, 'keep'));
    },
  },
  {
    name: 'terminal_send in the foreground',
    tool: 'terminal_send',
    args: { session: 'contract-t1', input: 'echo sent-$((6 * 7))\n' },
    running: 'terminal',
    settled: 'terminal',
    errorCode: '',
    check: (run) => {
      expect(run.card.body).toEqual({
        kind: 'terminal',
        tool: 'terminal_send',
        command: 'echo sent-$((6 * 7))\n',
        description: undefined,
        cwd: undefined,
        displayCwd: undefined,
        session: 'contract-t1',
        state: 'ok',
        background: false,
        output: 'sent-42\n',
        ending: undefined,
        timedOut: false,
      });
      expect(run.card.row.title).toBe('Terminal');
    },
  },
  {
    name: 'terminal_send in the background is Generic',
    tool: 'terminal_send',
    args: { session: 'contract-t2', input: 'true\n', background: true },
    running: 'generic',
    settled: 'generic',
    errorCode: '',
    check: (run) => expect(run.text).toBe(terminalSendAck('contract-t2')),
  },
  {
    name: 'output over the limit is spilled: Generic',
    tool: 'bash',
    args: { command: "head -c 40000 /dev/zero | tr '\\0' x" },
    running: 'terminal',
    settled: 'generic',
    errorCode: '',
    check: (run) => {
      const spill = parseSpillNotice(run.text);
      expect(spill?.totalBytes).toBe(40_000);
      expect(readFileSync(spill?.path ?? '', 'utf8')).toBe('x'.repeat(40_000));
      const head = run.text.slice(0, run.text.lastIndexOf('\n[output truncated'));
      expect(parseShellEnding(head)?.ending).toEqual({ kind: 'exit', code: 0 });
      expect(run.card.row).toMatchObject({ state: 'ok', resultText: run.text });
    },
  },
  {
    name: 'timeout: an error that ends with a marker stays a terminal',
    tool: 'bash',
    args: { command: 'echo before; sleep 5', timeout_ms: 300 },
    running: 'terminal',
    settled: 'terminal',
    errorCode: 'timeout',
    check: (run, { h }) => {
      expect(run.result.isError).toBe(true);
      expect(run.card.body).toEqual({
        ...standard,
        command: 'echo before; sleep 5',
        cwd: h.cwd,
        displayCwd: h.cwd,
        state: 'error',
        background: false,
        output: `before\n${timeoutNotice(300)}`,
        ending: { kind: 'signal', signal: 'SIGTERM' },
        timedOut: true,
      });
      expect(run.card.row).toMatchObject({ state: 'error', errorCode: 'timeout' });
      expect(run.card.status).toEqual({ state: 'error', label: 'timed out' });
    },
  },
  {
    name: 'an error without an exit marker is Generic (workdir missing)',
    tool: 'bash',
    args: { command: 'true', workdir: 'no-such-dir' },
    running: 'terminal',
    settled: 'generic',
    errorCode: 'not_found',
    check: (run) => expect(parseShellEnding(run.text)).toBeUndefined(),
  },
  {
    name: pwshInstalled ? 'pwsh runs' : 'pwsh not installed: Generic',
    tool: 'pwsh',
    args: { command: 'Write-Output hi' },
    running: 'terminal',
    settled: pwshInstalled ? 'terminal' : 'generic',
    errorCode: pwshInstalled ? '' : 'not_installed',
    check: (run) => {
      if (pwshInstalled) expect(bodyOf(run, 'terminal').output).toBe('hi');
      else expect(run.card.row.errorText).toMatch(/^pwsh is not installed/);
    },
  },
];

function logHas(path: string, text: string): boolean {
  return existsSync(path) && readFileSync(path, 'utf8').includes(text);
}
