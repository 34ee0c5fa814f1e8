import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dshBin } from '@dsh/cli';

/** A running `dsh serve` process of the bench. */
export interface ModelHost {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** User plus system CPU milliseconds of process `pid` so far (its threads, not its children). */
export function processCpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/PID/stat, counted after the parenthesised command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/**
 * Milliseconds the main thread of process `pid` (its event loop) has run on a CPU and has
 * waited, runnable, for one (`/proc/PID/schedstat`): the wait is what a loaded machine
 * takes from it.
 */
export function mainThreadSchedMs(pid: number): { runMs: number; waitMs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ');
  return { runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
}

/**
 * Waits for a spawned `dsh serve` to print its URL (killing it after `startMs` without
 * one) and gives its `stop`: SIGTERM, then SIGKILL if it has not exited after `graceMs`.
 */
export async function servingHost(
  child: ChildProcess,
  startMs = 120_000,
  graceMs = 30_000,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  let text = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`dsh printed no URL in ${startMs} ms: ${text.slice(-2000)}`));
      void stop();
    }, startMs);
    const look = (chunk: Buffer): void => {
      text += chunk.toString();
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`dsh exited before serving: ${text.slice(-2000)}`));
    });
  });
  return { url, stop };
}

/**
 * A real `dsh serve` process in `dir` (its own home, data dir and config file, `bash`
 * allowed without asking) whose model is the OpenAI-compatible server at `baseUrl`;
 * `serveArgs` are further `dsh serve` options (limits), `nodeArgs` options of its Node
 * process (`--cpu-prof`).
 */
export async function startModelHost(
  dir: string,
  baseUrl: string,
  {
    serveArgs = [],
    nodeArgs = [],
  }: { serveArgs?: readonly string[]; nodeArgs?: readonly string[] } = {},
): Promise<ModelHost> {
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
    ...serveArgs,
  ];
  const child = spawn(process.execPath, [...nodeArgs, dshBin, ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, stop } = await servingHost(child);
  return {
    url,
    pid: child.pid!,
    stop,
  };
}
