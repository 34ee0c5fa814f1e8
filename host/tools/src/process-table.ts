import { readdir, readFile } from 'node:fs/promises';

/** One process as `/proc/<pid>/stat` describes it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** One-letter state; `Z` is a zombie. */
  readonly state: string;
  /** Start time in clock ticks since boot: with the pid, it names one process for good. */
  readonly startTime: number;
}

/** How many `/proc` files are read at once. */
const readsAtOnce = 32;

/**
 * Every process visible in `/proc`, read with asynchronous I/O a few files at a time, so a
 * scan never blocks the event loop. Empty where there is no `/proc`.
 */
export async function processTable(): Promise<Map<number, ProcessEntry>> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return new Map();
  }
  const pids = names.filter((name) => /^\d+$/.test(name)).map(Number);
  const table = new Map<number, ProcessEntry>();
  for (let i = 0; i < pids.length; i += readsAtOnce) {
    const entries = await Promise.all(pids.slice(i, i + readsAtOnce).map(processEntry));
    for (const entry of entries) if (entry) table.set(entry.pid, entry);
  }
  return table;
}

/** One process, or `undefined` when it is gone. */
export async function processEntry(pid: number): Promise<ProcessEntry | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseStat(pid, text);
}

/** Parses `/proc/<pid>/stat`; the command name is parenthesised and may hold spaces. */
export function parseStat(pid: number, text: string): ProcessEntry | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  if (!Number.isInteger(ppid) || !Number.isInteger(pgid)) return undefined;
  return { pid, ppid, pgid, state: fields[0] ?? '', startTime: Number(fields[19]) };
}

/**
 * Whether the environment of `pid` holds `entry` (`NAME=value`). False when it cannot be
 * read (another user's process, or gone).
 */
export async function environmentHas(pid: number, entry: string): Promise<boolean> {
  try {
    const environ = await readFile(`/proc/${pid}/environ`);
    return environ.toString('utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/** The live (non-zombie) descendants of `roots` in `table`, roots not included. */
export function descendants(
  table: Map<number, ProcessEntry>,
  roots: Iterable<number>,
): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of table.values()) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry.pid);
    else children.set(entry.ppid, [entry.pid]);
  }
  const found = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      queue.push(child);
    }
  }
  for (const pid of found) if (table.get(pid)?.state === 'Z') found.delete(pid);
  return found;
}
