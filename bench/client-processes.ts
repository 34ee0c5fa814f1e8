import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg, setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dshBin } from '@dsh/cli';
import type { ClientJob, ClientReader, FromClient, ToClient } from './fanout-clients.js';
import { processCpuMs } from './model-host.js';

/** Every follower and page request comes from 127.0.0.1: the per-client caps are raised. */
export const benchLimits = [
  ...['--max-connections', '8192', '--max-connections-per-client', '8192'],
  ...['--max-streams-per-client', '8192'],
];

/** A row label's suffix for the clients' reader: none for the default `wire`. */
export const readerLabel = (reader: ClientReader): string =>
  reader === 'wire' ? '' : ', Connect clients';

/** What a child's reader does with each answer, for a row's note. */
export const readerDoes: Record<ClientReader, string> = {
  wire: 'reading seq, time and payload case of each binary frame (wire-client.ts)',
  connect: 'decoding every binary frame with the Connect client',
};

/** How many child processes share the followers or the page requests. */
export const clientProcessCount = 4;

/** The load average of the last minute, for a row's note. */
export const load = (): string => `load ${loadavg()[0]!.toFixed(1)}`;

/** `total` split into `parts` near-equal positive counts. */
export function spread(total: number, parts: number): number[] {
  const n = Math.max(1, Math.min(parts, total));
  return Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i < total % n ? 1 : 0));
}

/** A guard for a `FromClient` message type. */
export function isType<K extends FromClient['type']>(type: K) {
  return (message: FromClient): message is Extract<FromClient, { type: K }> =>
    message.type === type;
}

const runTs = join(dirname(dshBin), 'run-ts.js');
const script = fileURLToPath(new URL('./fanout-clients.ts', import.meta.url));

/** Child processes running `fanout-clients.ts` jobs, one job each. */
export interface ClientProcesses {
  readonly pids: readonly number[];
  /** Sends `message` to every child. */
  send(message: ToClient): void;
  /**
   * Resolves with each child's first message after this call that `match` accepts;
   * rejects after `timeoutMs`, or when a child exits first.
   */
  next<T extends FromClient>(match: (m: FromClient) => m is T, timeoutMs: number): Promise<T[]>;
  /** User plus system CPU ms of all children so far. */
  cpuMs(): number;
  /** Kills every child still running (SIGKILL) and waits for their exits. */
  stop(): Promise<void>;
}

/**
 * Spawns one child per job, each with an IPC channel, at scheduling priority `nice` (19:
 * the children get only the CPU that the host and the bench leave); stop it in a `finally`.
 */
export function startClientProcesses(jobs: readonly ClientJob[], nice = 0): ClientProcesses {
  const children: ChildProcess[] = jobs.map((job) =>
    spawn(process.execPath, [runTs, script, JSON.stringify(job)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  if (nice !== 0) for (const child of children) setPriority(child.pid!, nice);
  const exits = children.map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      }),
  );
  const cpu = new Map<number, number>();
  return {
    pids: children.map((child) => child.pid ?? -1),
    send: (message) => {
      for (const child of children) if (child.connected) child.send(message);
    },
    next: <T extends FromClient>(match: (m: FromClient) => m is T, timeoutMs: number) =>
      Promise.all(
        children.map(
          (child, index) =>
            new Promise<T>((resolve, reject) => {
              const done = (): void => {
                clearTimeout(timer);
                child.off('message', onMessage);
                child.off('exit', onExit);
              };
              const onMessage = (message: FromClient): void => {
                if (!match(message)) return;
                done();
                resolve(message);
              };
              const onExit = (): void => {
                done();
                reject(new Error(`client process ${index} exited before answering`));
              };
              const timer = setTimeout(() => {
                done();
                reject(new Error(`client process ${index}: no answer in ${timeoutMs} ms`));
              }, timeoutMs);
              child.on('message', onMessage);
              child.once('exit', onExit);
              if (child.exitCode !== null || child.signalCode !== null) onExit();
            }),
        ),
      ),
    cpuMs: () => {
      let total = 0;
      for (const child of children) {
        // A child that exited keeps the last figure read.
        const pid = child.pid ?? -1;
        try {
          cpu.set(pid, processCpuMs(pid));
        } catch {
          // Gone: its last reading stands.
        }
        total += cpu.get(pid) ?? 0;
      }
      return total;
    },
    stop: async () => {
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      await Promise.all(exits);
    },
  };
}
