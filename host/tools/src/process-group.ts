import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  descendants,
  environmentHas,
  parseStat,
  processEntry,
  processTable,
  type ProcessEntry,
} from './process-table.js';

/** How long a process tree gets between SIGTERM and SIGKILL. */
export const killGraceMs = 2000;

/** The environment variable that marks every process one command starts. */
export const processTagVariable = 'DSH_PROCESS_TAG';

/** How often running trees record their descendants, and a kill looks again. */
const observeEveryMs = 1000;
const pollEveryMs = 100;

/**
 * The processes of one command: its process group (the command is started as a group
 * leader), every descendant of the leader, the descendants seen while it ran (they may have
 * left the group with `setsid` and lost their parent since), and every process whose
 * environment carries the command's tag. `spawnEnv` is the environment to start it with.
 */
export class ProcessTree {
  readonly tag = randomUUID();
  private readonly seen = new Map<number, number>();
  private pid = 0;
  private leaderStart: number | undefined;

  /** The environment a command of this tree starts with. */
  spawnEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return { ...env, [processTagVariable]: this.tag };
  }

  /** Starts watching the tree of the started leader `pid` until `kill` or `forget`. */
  watch(pid: number): void {
    this.pid = pid;
    watched.add(this);
    scheduleObservation();
  }

  /** Stops watching (the command ended and what it left running may keep running). */
  forget(): void {
    watched.delete(this);
  }

  /**
   * Records the descendants in `table`, each pid with its start time, so a pid the system
   * later gives to another process is never taken for one of the tree's.
   */
  observe(table: Map<number, ProcessEntry>): void {
    const leader = table.get(this.pid);
    if (leader && this.leaderStart === undefined) this.leaderStart = leader.startTime;
    const roots = [...this.seen].filter(([pid, start]) => table.get(pid)?.startTime === start);
    if (this.isLeader(leader)) roots.push([this.pid, leader?.startTime ?? 0]);
    for (const pid of descendants(
      table,
      roots.map(([pid]) => pid),
    )) {
      const entry = table.get(pid);
      if (entry && !this.seen.has(pid)) this.seen.set(pid, entry.startTime);
    }
  }

  private isLeader(entry: ProcessEntry | undefined): boolean {
    return entry !== undefined && (this.leaderStart ?? entry.startTime) === entry.startTime;
  }

  /** The live members of the tree now; `byTag` also reads every process's environment. */
  async members(byTag: boolean): Promise<Set<number>> {
    const table = await processTable();
    this.observe(table);
    const members = new Set<number>();
    for (const entry of table.values()) {
      if (entry.state === 'Z' || entry.pid === process.pid) continue;
      const seenAt = this.seen.get(entry.pid);
      const leader = entry.pid === this.pid && this.isLeader(entry);
      if (leader || entry.pgid === this.pid || seenAt === entry.startTime) {
        members.add(entry.pid);
      }
    }
    if (byTag) {
      const tagged = `${processTagVariable}=${this.tag}`;
      const candidates = [...table.values()].filter(
        (e) => e.state !== 'Z' && e.pid !== process.pid && !members.has(e.pid),
      );
      for (let i = 0; i < candidates.length; i += 32) {
        const batch = candidates.slice(i, i + 32);
        const has = await Promise.all(batch.map((e) => environmentHas(e.pid, tagged)));
        batch.forEach((e, j) => has[j] && members.add(e.pid));
      }
    }
    return members;
  }

  /**
   * Terminates the whole tree: SIGTERM, then SIGKILL to whatever is left after `graceMs`.
   * Resolves with the last signal sent once no live member remains (or a second after
   * SIGKILL). Every look at `/proc` is asynchronous.
   */
  async kill(graceMs = killGraceMs): Promise<NodeJS.Signals> {
    watched.delete(this);
    // Never signal group 0: that is the host's own process group.
    if (this.pid <= 0) return 'SIGTERM';
    let members = await this.members(true);
    const groupSignalled = signal(-this.pid, 'SIGTERM');
    if (!groupSignalled && members.size === 0) return 'SIGTERM';
    for (const pid of members) signal(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      await sleep(pollEveryMs);
      members = await this.members(false);
      if (members.size === 0) return 'SIGTERM';
      for (const pid of members) signal(pid, 'SIGTERM');
    }
    members = await this.members(true);
    signal(-this.pid, 'SIGKILL');
    for (const pid of members) signal(pid, 'SIGKILL');
    for (let i = 0; i < 1000 / pollEveryMs && members.size > 0; i++) {
      await sleep(pollEveryMs);
      members = await this.members(false);
      for (const pid of members) signal(pid, 'SIGKILL');
    }
    return 'SIGKILL';
  }
}

/** Whether process `pid` is running (exists and is not a zombie). */
export async function processAlive(pid: number): Promise<boolean> {
  if (!signal(pid, 0)) return false;
  const entry = await processEntry(pid);
  return entry === undefined || entry.state !== 'Z';
}

/**
 * Whether process `pid` is running, read synchronously: one small file, for tests that
 * check a kill. Host code uses `processAlive`.
 */
export function isProcessAlive(pid: number): boolean {
  if (!signal(pid, 0)) return false;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  return parseStat(pid, text)?.state !== 'Z';
}

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** Trees of running commands; one asynchronous `/proc` scan a second serves them all. */
const watched = new Set<ProcessTree>();
let observing: NodeJS.Timeout | undefined;

function scheduleObservation(): void {
  if (observing !== undefined || watched.size === 0) return;
  observing = setTimeout(() => {
    void processTable()
      .then((table) => {
        for (const tree of watched) tree.observe(table);
      })
      .finally(() => {
        observing = undefined;
        scheduleObservation();
      });
  }, observeEveryMs);
  observing.unref();
}
