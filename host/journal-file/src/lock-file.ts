import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isReadOnlyError } from './io-error.js';

/** Who holds a lock file, as its content says. */
export interface LockHolder {
  readonly pid: number;
  /** What it is doing: `dsh serve`, `dsh import`... */
  readonly purpose: string;
  /** When the holder process started (RFC 3339); '' when unknown. */
  readonly startedAt: string;
  readonly host: string;
  /** The process start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  readonly startTicks: string;
  /** /proc/sys/kernel/random/boot_id of the machine it ran on. */
  readonly bootId: string;
  /** Unique per acquisition, so a release removes only its own lock. */
  readonly nonce: string;
}

/** What `acquireLockFile` found. */
export type LockResult =
  | { readonly kind: 'acquired'; readonly release: () => Promise<void> }
  | { readonly kind: 'held'; readonly holder: LockHolder }
  | { readonly kind: 'read_only'; readonly error: NodeJS.ErrnoException };

/** A lock whose content cannot be read is taken as stale once it is this old. */
const unreadableGraceMs = 2_000;
/** A `.break` file older than this belongs to a breaker that died. */
const breakerGraceMs = 10_000;

/**
 * Takes the exclusive lock file `path`. The lock is created whole: its content (pid,
 * process start time, boot id, host, purpose) goes to a temp file first and is then
 * `link`ed to `path`, which fails when the lock exists, so no reader ever sees a lock
 * without its holder. A lock whose holder is gone (no such pid, or a pid reused by a
 * process with another start time, or another boot) is removed, under a short
 * `.break` lock so two takers never both remove a fresh lock. A read-only dir gives
 * `read_only`; other file errors are thrown.
 */
export async function acquireLockFile(path: string, purpose: string): Promise<LockResult> {
  const me = ownHolder(purpose);
  const content = JSON.stringify(me) + '\n';
  for (let attempt = 0; attempt < 50; attempt += 1) {
    let created: boolean;
    try {
      created = await createWhole(path, content);
    } catch (error) {
      if (!isReadOnlyError(error)) throw error;
      return { kind: 'read_only', error: error as NodeJS.ErrnoException };
    }
    if (created) return { kind: 'acquired', release: releaser(path, content) };
    const seen = await readFile(path, 'utf8').catch(() => undefined);
    if (seen === undefined) continue; // Released meanwhile: try again.
    const holder = parseHolder(seen);
    if (holder !== undefined && !isStale(holder)) return { kind: 'held', holder };
    if (holder === undefined && !(await olderThan(path, unreadableGraceMs))) {
      await sleep(100);
      continue;
    }
    await breakStale(path, seen);
  }
  throw new Error(`cannot take the lock ${path}: it keeps changing; remove it and retry`);
}

/** The holder of `path` when a live process holds it; undefined when free or stale. */
export async function lockHolder(path: string): Promise<LockHolder | undefined> {
  const seen = await readFile(path, 'utf8').catch(() => undefined);
  const holder = seen === undefined ? undefined : parseHolder(seen);
  return holder !== undefined && !isStale(holder) ? holder : undefined;
}

/** One line that says who holds a lock: `pid 123 (dsh serve, since ...)`. */
export function describeHolder(holder: LockHolder): string {
  const since = holder.startedAt !== '' ? `, since ${holder.startedAt}` : '';
  const where = holder.host !== '' && holder.host !== hostname() ? ` on host ${holder.host}` : '';
  return `pid ${holder.pid}${where} (${holder.purpose || 'dsh'}${since})`;
}

/** Writes `content` to a temp file beside `path` and links it there; false when taken. */
async function createWhole(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = await open(temp, 'wx');
    try {
      await fd.writeFile(content);
      await fd.sync();
    } finally {
      await fd.close();
    }
    return await link(temp, path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** Removes the stale lock `path` if it still holds `seen`, under the `.break` lock. */
async function breakStale(path: string, seen: string): Promise<void> {
  const breaker = `${path}.break`;
  if (!(await createWhole(breaker, JSON.stringify(ownHolder('breaking a stale lock'))))) {
    if (await olderThan(breaker, breakerGraceMs)) await rm(breaker, { force: true });
    else await sleep(50);
    return;
  }
  try {
    const now = await readFile(path, 'utf8').catch(() => undefined);
    if (now === seen) await rm(path, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

/** Removes the lock if it is still ours: on release, and when the process exits. */
function releaser(path: string, content: string): () => Promise<void> {
  const ours = (text: string | undefined) => text === content;
  const onExit = (): void => {
    try {
      if (ours(readFileSync(path, 'utf8'))) unlinkSync(path);
    } catch {
      // Gone already.
    }
  };
  process.once('exit', onExit);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    if (ours(await readFile(path, 'utf8').catch(() => undefined))) await rm(path, { force: true });
  };
}

function ownHolder(purpose: string): LockHolder {
  return {
    pid: process.pid,
    purpose,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    host: hostname(),
    startTicks: startTicks(process.pid) ?? '',
    bootId: bootId() ?? '',
    nonce: randomBytes(8).toString('hex'),
  };
}

/** Reads a lock's content: this module's JSON, or a bare pid (older import locks). */
function parseHolder(text: string): LockHolder | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const blank = { purpose: '', startedAt: '', host: '', startTicks: '', bootId: '', nonce: '' };
    return { ...blank, pid: Number(trimmed) };
  }
  try {
    const parsed = JSON.parse(trimmed) as Partial<Record<keyof LockHolder, unknown>>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) {
      return undefined;
    }
    const text = (key: keyof LockHolder): string =>
      typeof parsed[key] === 'string' ? (parsed[key] as string) : '';
    return {
      pid: parsed.pid,
      purpose: text('purpose'),
      startedAt: text('startedAt'),
      host: text('host'),
      startTicks: text('startTicks'),
      bootId: text('bootId'),
      nonce: text('nonce'),
    };
  } catch {
    return undefined;
  }
}

/**
 * True when the holder's process is gone: another boot of this machine, no process
 * with its pid, or a process with its pid but another start time (pid reuse). A lock
 * taken on another host is never taken as stale: it cannot be checked from here.
 */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== '' && holder.host !== hostname()) return false;
  const boot = bootId();
  if (holder.bootId !== '' && boot !== undefined && holder.bootId !== boot) return true;
  if (!alive(holder.pid)) return true;
  const ticks = startTicks(holder.pid);
  return holder.startTicks !== '' && ticks !== undefined && ticks !== holder.startTicks;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined || Date.now() - info.mtimeMs > ms;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
