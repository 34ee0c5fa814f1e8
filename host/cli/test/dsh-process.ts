import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dshBin = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));

/** A running `dsh serve` subprocess. */
export interface DshProcess {
  /** The URL it printed (`dsh <version> serving <url>`). */
  url: string;
  readonly pid: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills it with SIGKILL (no shutdown at all) and resolves once it is gone. */
  kill(): Promise<void>;
}

/** The environment of a spawned `dsh`: `HOME` set, every `DSH_*` variable removed. */
function dshEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DSH_')) env[key] = value;
  }
  env.HOME = home;
  return env;
}

/** Runs `node host/bin/dsh.js ...args` to its end: exit code and everything it printed. */
export function runDsh(
  args: readonly string[],
  options: { cwd: string; home: string },
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [dshBin, ...args], {
    cwd: options.cwd,
    env: dshEnv(options.home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/**
 * Spawns the real CLI, `node host/cli/bin/dsh.js serve --port 0 --data-dir <dataDir>`, in
 * `cwd` with `HOME` set to `home` and every `DSH_*` variable removed (so neither a
 * config file nor an API key of the machine is used: the demo model runs).
 */
export async function startDsh(options: {
  cwd: string;
  home: string;
  dataDir: string;
  /** More `dsh serve` flags (`--store postgres://...`). */
  args?: readonly string[];
  /** More environment variables (`DSH_LEASE_MS`). */
  env?: Readonly<Record<string, string>>;
}): Promise<DshProcess> {
  const env = { ...dshEnv(options.home), ...options.env };
  const child = spawn(
    process.execPath,
    [dshBin, 'serve', '--port', '0', '--data-dir', options.dataDir, ...(options.args ?? [])],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) resolve(match[1] ?? '');
    };
    child.stdout.on('data', look);
    void exited.then((code) => reject(new Error(`dsh exited ${code} before serving: ${text}`)));
  });
  return {
    url,
    pid: child.pid ?? 0,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
