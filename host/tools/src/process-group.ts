import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a process group gets between SIGTERM and SIGKILL. */
export const killGraceMs = 2000;

/**
 * Whether any live member of process group `pgid` remains. Zombies do not count: a
 * container whose init does not reap orphans keeps them around forever.
 */
export function isProcessGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgid === pgid && stat.state !== 'Z') return true;
  }
  return false;
}

/** Whether process `pid` is running (exists and is not a zombie). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = procStat(pid);
  return stat === undefined || stat.state !== 'Z';
}

/**
 * Terminates a whole process group: SIGTERM, then SIGKILL to whatever is left after
 * `graceMs`. Resolves with the last signal sent once no live member remains.
 */
export async function killProcessGroup(
  pgid: number,
  graceMs = killGraceMs,
): Promise<NodeJS.Signals> {
  if (!signalGroup(pgid, 'SIGTERM')) return 'SIGTERM';
  if (await waitForGroupExit(pgid, graceMs)) return 'SIGTERM';
  signalGroup(pgid, 'SIGKILL');
  await waitForGroupExit(pgid, 1000);
  return 'SIGKILL';
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

async function waitForGroupExit(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isProcessGroupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

function procStat(pid: number): { state: string; pgid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is parenthesised and may contain spaces: parse after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgid: Number(fields[2]) };
}
