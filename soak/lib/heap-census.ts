import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Live objects by constructor name in one heap snapshot of a host. */
export type Census = ReadonlyMap<string, number>;

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/**
 * Takes a heap snapshot of a host started with `--heapsnapshot-signal=SIGUSR2` (V8 runs
 * a full GC first, so only reachable objects are in it) and counts objects by
 * constructor name. The snapshot file is written into `cwd`, the host's working
 * directory, and removed after reading.
 */
export async function heapCensus(pid: number, cwd: string, timeoutMs = 60_000): Promise<Census> {
  const before = new Set(snapshots(cwd));
  process.kill(pid, 'SIGUSR2');
  const until = Date.now() + timeoutMs;
  let file: string | undefined;
  let size = -1;
  while (Date.now() < until) {
    await sleep(250);
    file ??= snapshots(cwd).find((name) => !before.has(name));
    if (!file) continue;
    const now = statSync(join(cwd, file)).size;
    if (now === size && now > 0 && endsComplete(join(cwd, file))) break;
    size = now;
  }
  if (!file) throw new Error(`no heap snapshot from pid ${pid} within ${timeoutMs} ms`);
  const path = join(cwd, file);
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  rmSync(path, { force: true });
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const object = types.indexOf('object');
  const counts = new Map<string, number>();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    if (snapshot.nodes[i + typeAt] !== object) continue;
    const name = snapshot.strings[snapshot.nodes[i + nameAt] ?? -1] ?? '?';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

function snapshots(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.heapsnapshot'));
}

/** Whether the snapshot's JSON is closed (V8 writes it front to back). */
function endsComplete(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(16);
    const size = fstatSync(fd).size;
    const read = readSync(fd, tail, 0, tail.length, Math.max(0, size - tail.length));
    return tail.subarray(0, read).toString('latin1').trimEnd().endsWith('}');
  } finally {
    closeSync(fd);
  }
}
