/**
 * A real PostgreSQL for tests: a temporary cluster from Debian's `postgresql` package,
 * started with `initdb` and `pg_ctl` as the unprivileged `postgres` user (root cannot run
 * the server), listening on 127.0.0.1 at a port picked here, stopped and removed after.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's `postgresql` package puts the server binaries. */
export const postgresBin = process.env.DSH_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (existsSync(join(postgresBin, 'initdb')) && existsSync(join(postgresBin, 'pg_ctl'))) {
    return undefined;
  }
  return `PostgreSQL server binaries not found in ${postgresBin}: apt-get install postgresql`;
}

/**
 * True when the PostgreSQL tests must be skipped (binaries missing outside CI); throws
 * under `CI=true`, where a missing package is a broken machine, not a reason to skip.
 */
export function skipWithoutPostgres(): boolean {
  const missing = postgresMissing();
  if (missing === undefined) return false;
  if (process.env.CI === 'true') throw new Error(`${missing} (required when CI=true)`);
  console.warn(`skipping PostgreSQL tests: ${missing}`);
  return true;
}

/** A running temporary PostgreSQL cluster. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, no password). */
  readonly url: string;
  readonly port: number;
  /** A fresh database's URL (`CREATE DATABASE`), for tests that need one to themselves. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is cut, the data is kept. */
  restart(): Promise<void>;
  /**
   * `pg_ctl stop -m fast` (for tests of a database that is down; every commit is kept,
   * which an immediate stop would not promise with the test cluster's fsync off);
   * `start` brings it back.
   */
  stopServer(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its data dir. */
  destroy(): Promise<void>;
}

/** Options of `startPostgres`. */
export interface StartPostgresOptions {
  /** Keep fsync and synchronous commit on, as a production server has them (default false). */
  readonly durable?: boolean;
}

/** Starts a temporary cluster: a temp dir owned by `postgres`, initdb, pg_ctl start. */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const missing = postgresMissing();
  if (missing !== undefined) throw new Error(missing);
  const root = await mkdtemp(join(tmpdir(), 'dsh-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = (bin: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(postgresBin, bin), ...args], {
          timeout: 60_000,
        })
      : run(join(postgresBin, bin), args, { timeout: 60_000 });
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    ...(options.durable === true ? [] : ['-c fsync=off', '-c synchronous_commit=off']),
  ].join(' ');
  const pgCtl = (...args: string[]) => pgRun('pg_ctl', ['-D', data, '-l', log, '-w', ...args]);
  try {
    await pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    await pgCtl('-o', settings, 'start');
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw new Error(`cannot start a test PostgreSQL in ${root}: ${(error as Error).message}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = true;
  return {
    url,
    port,
    async createDatabase(name) {
      await run(join(postgresBin, 'createdb'), [
        '-h',
        '127.0.0.1',
        '-p',
        `${port}`,
        '-U',
        'postgres',
        name,
      ]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      await pgCtl('-m', 'fast', '-o', settings, 'restart');
    },
    async stopServer() {
      await pgCtl('-m', 'fast', 'stop');
      running = false;
    },
    async start() {
      await pgCtl('-o', settings, 'start');
      running = true;
    },
    async destroy() {
      if (running) await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      running = false;
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Schemas handed out by `freshSchema`, so every test of a file gets empty tables. */
let schemas = 0;

/** A schema name no earlier call in this process returned: one test's own tables. */
export function freshSchema(prefix = 't'): string {
  schemas += 1;
  return `${prefix}_${process.pid}_${schemas}`;
}
