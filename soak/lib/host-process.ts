import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dshBin } from '@dsh/cli';

/** How a `dsh serve` process is started. */
export interface HostOptions {
  readonly dataDir: string;
  /** HOME of the host: a scratch dir, so no `~/.dsh/config.json` of the machine is read. */
  readonly home: string;
  /** Working directory of the process (the default cwd of new sessions). */
  readonly cwd: string;
  /** Extra `dsh serve` flags (`--config`, `--base-url`...). */
  readonly args?: readonly string[];
  /** Node flags placed before the script (`--max-old-space-size=...`). */
  readonly nodeArgs?: readonly string[];
}

/** A `dsh serve` child process, watched from outside. */
export interface HostProcess {
  readonly pid: number;
  /** Resolves with the URL it printed; rejects when it exits before serving or times out. */
  readonly serving: Promise<string>;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  alive(): boolean;
  /** Resident set size in KiB from /proc, or undefined once it has exited. */
  rssKb(): number | undefined;
  /** Open file descriptors from /proc, or undefined once it has exited. */
  fdCount(): number | undefined;
  /** SIGKILL, then waits for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`; waits for the exit. */
  stop(graceMs?: number): Promise<void>;
}

/** Every host process of this run that has not exited. */
const running = new Set<HostProcess>();

// However the soak ends (a crash included), it leaves no host running behind it.
process.on('exit', () => {
  for (const host of running) {
    try {
      process.kill(host.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** SIGKILLs every host of this run still running (an interrupted run). */
export async function killAllHosts(): Promise<void> {
  await Promise.all([...running].map((host) => host.kill9()));
}

/**
 * Spawns the real CLI, `node host/cli/bin/dsh.js serve --port 0 --data-dir DIR ...`, with
 * every `DSH_*` variable removed from its environment. The first start of a fresh
 * checkout builds the web client, hence the long default start timeout.
 */
export function launchHost(options: HostOptions, startTimeoutMs = 120_000): HostProcess {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DSH_')) env[key] = value;
  }
  env.HOME = options.home;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...extraNodeArgs(),
      dshBin,
      'serve',
      '--port',
      '0',
      '--data-dir',
      options.dataDir,
      ...(options.args ?? []),
    ],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  const keep = (chunk: Buffer): void => {
    text += chunk.toString();
    // Keep the head (start-up lines) and the tail (the latest errors).
    if (text.length > 200_000) text = text.slice(0, 50_000) + '\n[...]\n' + text.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const serving = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`dsh did not serve within ${startTimeoutMs} ms: ${text.slice(-2000)}`)),
      startTimeoutMs,
    );
    const look = (): void => {
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] ?? '');
    };
    child.stdout?.on('data', look);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`dsh exited (${signal ?? code}) before serving: ${text.slice(-2000)}`));
    });
  });
  serving.catch(() => undefined);
  const pid = child.pid ?? -1;
  const proc = (file: string): string | undefined => {
    if (done) return undefined;
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return undefined;
    }
  };
  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    if (!done) child.kill(signal);
    await exited;
  };
  const host: HostProcess = {
    pid,
    serving,
    exited,
    output: () => text,
    alive: () => !done,
    rssKb() {
      const match = /VmRSS:\s+(\d+) kB/.exec(proc('status') ?? '');
      return match ? Number(match[1]) : undefined;
    },
    fdCount() {
      if (done) return undefined;
      try {
        return readdirSync(`/proc/${pid}/fd`).length;
      } catch {
        return undefined;
      }
    },
    kill9: () => signalAndWait('SIGKILL'),
    async stop(graceMs = 5_000) {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(host);
  void exited.then(() => running.delete(host));
  return host;
}

/**
 * Node flags every host gets from `SOAK_HOST_NODE_ARGS` (space-separated), to look
 * inside a probe's hosts: `SOAK_HOST_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`.
 */
function extraNodeArgs(): string[] {
  return (process.env.SOAK_HOST_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
}

/** Launches a host and waits until it serves; the process is killed if it never does. */
export async function startHost(
  options: HostOptions,
  startTimeoutMs?: number,
): Promise<HostProcess & { url: string }> {
  const host = launchHost(options, startTimeoutMs);
  try {
    return Object.assign(host, { url: await host.serving });
  } catch (error) {
    await host.kill9();
    throw error;
  }
}
