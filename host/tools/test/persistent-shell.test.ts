import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  errorCodes,
  parseShellEnding,
  parseSpillNotice,
  terminalSendAck,
  timeoutNotice,
} from '@dsh/card-models/contract';
import { ansiCQuote } from '../src/persistent-shell.js';
import { isProcessAlive } from '../src/index.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('bash (persistent shell)', () => {
  it('keeps cwd, variables and functions between calls, with no exit marker', async () => {
    await h.run('bash', { command: 'mkdir -p a/b && cd a/b', session: 'main' });
    await h.run('bash', {
      command: 'export GREETING=hi; greet() { echo "$GREETING $1"; }',
      session: 'main',
    });
    const pwd = await h.run('bash', { command: 'pwd', session: 'main' });
    expect(pwd.text).toBe(`${h.cwd}/a/b`);
    expect(parseShellEnding(pwd.text)).toBeUndefined();
    const greet = await h.run('bash', { command: 'greet you', session: 'main' });
    expect(greet.text).toBe('hi you');
  });

  it('keeps sessions apart', async () => {
    await h.run('bash', { command: 'cd /', session: 'one' });
    const other = await h.run('bash', { command: 'pwd', session: 'two' });
    expect(other.text).toBe(h.cwd);
  });

  it.each([
    { command: 'echo \'single\' "double" \\\\back', expected: 'single double \\back' },
    { command: 'echo one\necho two', expected: 'one\ntwo' },
    { command: 'ls /definitely-missing 2>&1 | wc -l', expected: '1' },
    { command: 'echo to-stderr >&2', expected: 'to-stderr' },
    { command: 'false', expected: '' },
  ])('runs $command', async ({ command, expected }) => {
    const { text, result } = await h.run('bash', { command, session: 's' });
    expect(result.isError).toBe(false);
    expect(text).toBe(expected);
  });

  it('reports a syntax error and keeps the shell usable', async () => {
    const bad = await h.run('bash', { command: 'if then fi', session: 's' });
    expect(bad.text).toContain('syntax error near unexpected token');
    const good = await h.run('bash', { command: 'echo fine', session: 's' });
    expect(good.text).toBe('fine');
  });

  it('kills what the shell started with setsid when it is disposed', async () => {
    const { text } = await h.run('bash', {
      command: 'setsid sleep 100 & echo pid:$!',
      session: 's',
    });
    const pid = Number(/pid:(\d+)/.exec(text)?.[1]);
    expect(isProcessAlive(pid)).toBe(true);
    await h.tools.dispose();
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('times out, kills the shell and starts a new one next time', async () => {
    const first = await h.run('bash', {
      command: 'cd /tmp; echo pid:$$; sleep 100',
      session: 's',
      timeout_ms: 400,
    });
    expect(first.result.error?.code).toBe(errorCodes.timeout);
    expect(first.text).toContain(timeoutNotice(400));
    const pid = Number(/pid:(\d+)/.exec(first.text)?.[1]);
    expect(isProcessAlive(pid)).toBe(false);
    const second = await h.run('bash', { command: 'pwd', session: 's' });
    expect(second.text).toBe(h.cwd);
  });

  it('reports a shell that exits', async () => {
    const { text } = await h.run('bash', { command: 'echo bye; exit 4', session: 's' });
    expect(text).toMatch(/^bye\n\[shell session s ended/);
    const again = await h.run('bash', { command: 'echo back', session: 's' });
    expect(again.text).toBe('back');
  });

  it('spills long output', async () => {
    const { text } = await h.run('bash', { command: 'seq 1 20000', session: 's' });
    expect(parseSpillNotice(text)?.totalBytes).toBeGreaterThan(30_000);
  });
});

describe('terminal_send', () => {
  it('feeds input to a command waiting on stdin', async () => {
    const started = await h.run('terminal_send', {
      session: 's',
      input: 'read -r NAME; echo "hello $NAME"\n',
    });
    expect(started.text).toBe('');
    const answered = await h.run('terminal_send', { session: 's', input: 'Ada\n' });
    expect(answered.text).toBe('hello Ada\n');
    const { text } = await h.run('bash', { command: 'echo "$NAME"', session: 's' });
    expect(text).toBe('Ada');
  });

  it('acknowledges background input', async () => {
    const sent = await h.run('terminal_send', {
      session: 's',
      input: 'export SENT=yes\n',
      background: true,
    });
    expect(sent.text).toBe(terminalSendAck('s'));
    const { text } = await h.run('bash', { command: 'echo "$SENT"', session: 's' });
    expect(text).toBe('yes');
  });

  it('returns the output that follows in the foreground', async () => {
    const { text, result } = await h.run('terminal_send', { session: 't', input: 'echo typed\n' });
    expect(result.isError).toBe(false);
    expect(text).toBe('typed\n');
  });

  it('changes the state of the session shell', async () => {
    await h.run('terminal_send', { session: 't', input: 'cd /\n' });
    const { text } = await h.run('bash', { command: 'pwd', session: 't' });
    expect(text).toBe('/');
  });
});

describe('ansiCQuote()', () => {
  it.each([
    { text: 'plain', quoted: "$'plain'" },
    { text: "it's", quoted: "$'it\\'s'" },
    { text: 'a\\b', quoted: "$'a\\\\b'" },
    { text: 'line\nnext\ttab', quoted: "$'line\\x0anext\\x09tab'" },
  ])('$text', ({ text, quoted }) => {
    expect(ansiCQuote(text)).toBe(quoted);
  });
});
