import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dshBin } from '@dsh/cli';
import type { FromListClient, ToListClient } from './list-client.js';

const runTs = join(dirname(dshBin), 'run-ts.js');
const script = fileURLToPath(new URL('./list-client.ts', import.meta.url));

/** The catalog rows' client process (`list-client.ts`). */
export interface ListClientProcess {
  /**
   * Sends `message` and resolves with the reply of type `type`; rejects when the client
   * reports a failure, exits, or does not reply within `timeoutMs`.
   */
  ask<K extends FromListClient['type']>(
    message: ToListClient,
    type: K,
    timeoutMs: number,
  ): Promise<Extract<FromListClient, { type: K }>>;
  stop(): Promise<void>;
}

/** Starts the list client process; resolves once it is ready for its first message. */
export async function startListClient(): Promise<ListClientProcess> {
  const child = spawn(process.execPath, [runTs, script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (timeoutMs: number) =>
    new Promise<FromListClient>((resolve, reject) => {
      const done = (settle: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        settle();
      };
      const onMessage = (message: FromListClient) => done(() => resolve(message));
      const onExit = () => done(() => reject(new Error('the list client exited')));
      const timer = setTimeout(
        () => done(() => reject(new Error(`the list client did not answer in ${timeoutMs} ms`))),
        timeoutMs,
      );
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next(60_000);
  if (ready.type !== 'ready') throw new Error(`the list client said ${JSON.stringify(ready)}`);
  return {
    async ask(message, type, timeoutMs) {
      const reply = next(timeoutMs);
      child.send(message);
      const got = await reply;
      if (got.type !== type) throw new Error(`the list client said ${JSON.stringify(got)}`);
      return got as Extract<FromListClient, { type: typeof type }>;
    },
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
