import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { pause, repoRoot } from './launch-tui.js';

/** True when OpenSSH's client is missing; says what to install (and fails under CI=true). */
export function sshMissing(): boolean {
  const missing =
    spawnSync('ssh', ['-V']).status !== 0 || spawnSync('ssh-keygen', ['-?']).error !== undefined;
  if (missing && process.env.CI === 'true') {
    throw new Error('OpenSSH is required for the dsh ssh tests: apt-get install -y openssh-client');
  }
  if (missing) console.warn('dsh ssh tests skipped: install the Debian package `openssh-client`');
  return missing;
}

/** `dsh ssh` as a child process, with what it printed so far. */
export interface SshServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  output(): string;
  /** Waits until the printed lines satisfy `predicate`. */
  waitFor(predicate: (output: string) => boolean, what: string): Promise<string>;
}

/** Starts `dsh ssh --port 0 ARGS`; `env` adds to the environment (NODE_OPTIONS, ...). */
export async function startDshSsh(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<SshServerProcess> {
  const child = spawn('node', ['host/cli/bin/dsh.js', 'ssh', '--port', '0', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let text = '';
  child.stdout!.on('data', (data: Buffer) => (text += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (text += data.toString()));
  const server = {
    child,
    port: 0,
    output: () => text,
    async waitFor(predicate: (output: string) => boolean, what: string) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (predicate(text)) return text;
        if (child.exitCode !== null) break;
        await pause(100);
      }
      throw new Error(`timed out waiting for ${what}; dsh ssh printed:\n${text}`);
    },
  };
  const ready = await server.waitFor((out) => /ssh -t -p \d+/.test(out), 'dsh ssh to listen');
  return { ...server, port: Number(/ssh -t -p (\d+)/.exec(ready)![1]) };
}
