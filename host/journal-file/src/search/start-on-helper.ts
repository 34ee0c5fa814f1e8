import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** A message of `rg --json` as the helper parsed it; a match's line is in its batch's `lines`. */
export type HelperMessage =
  | {
      type: 'match';
      path: string;
      offset: number;
      /** The matched line's byte range in the batch's `lines`. */
      lineStart: number;
      lineEnd: number;
      ranges: { start: number; end: number }[];
    }
  | { type: 'end'; path: string };

/** What the helper reports about one run. */
export type RunEvent =
  | { kind: 'spawned' }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'messages'; lines: Uint8Array; messages: HelperMessage[] }
  | {
      kind: 'exit';
      code: number | null;
      signal: string | null;
      stderr: string;
      /** True when the helper killed rg past the run's output cap. */
      capped: boolean;
    }
  /** The helper process itself ended (it crashed, ran out of memory or was killed). */
  | { kind: 'lost'; reason: string };

/** One rg run on the helper: its events, and the controls the host has over it. */
export interface HelperRun {
  /** Asks for the batch after the ones already sent (the helper keeps a few in flight). */
  more(): void;
  kill(): void;
}

/** What a run is started with. */
export interface HelperJob {
  readonly program: string;
  readonly args: readonly string[];
  readonly stdin: { readonly path: string; readonly start: number } | undefined;
  readonly maxOutputBytes: number;
}

const helperPath = fileURLToPath(new URL('./ripgrep-helper.js', import.meta.url));
/**
 * The helper holds a few chunks of rg output per run, never a whole result; the heap
 * ceiling leaves room to parse one journal line of `maxEventLineBytes` (16 MiB) as rg
 * escapes it. A larger line (stored past that limit) can exhaust it: that search fails
 * `unavailable`.
 */
const helperArgs = ['--max-old-space-size=256'];
/** Most of the helper's stderr kept to say why it ended. */
const stderrChars = 2048;

let helper: ChildProcess | undefined;
let nextId = 1;
const listeners = new Map<number, (event: RunEvent) => void>();

/**
 * Starts `job` on the host's one ripgrep helper process (started on first use, kept
 * while runs are live and unreferenced while idle, so it never keeps the host alive); a
 * helper that ends ends its runs with `lost` and the next run starts a new one.
 */
export function startOnHelper(job: HelperJob, onEvent: (event: RunEvent) => void): HelperRun {
  const child = (helper ??= startHelper());
  const id = nextId++;
  listeners.set(id, onEvent);
  if (listeners.size === 1) hold(child, true);
  const send = (message: object): void => {
    // A helper that is gone reports `lost` on its 'exit'; nothing more to send it.
    if (child.connected) child.send(message, () => undefined);
  };
  // One NUL-joined string (no argument can hold a NUL): serialized far faster than one
  // string per path, and a run names up to 200 journal files.
  send({ kind: 'run', id, ...job, args: job.args.join('\0') });
  return {
    more: () => send({ kind: 'more', id }),
    kill: () => send({ kind: 'kill', id }),
  };
}

/** Runs started and not yet ended (each one rg process): zero whenever no search runs. */
export function runningRipgrep(): number {
  return listeners.size;
}

function startHelper(): ChildProcess {
  // The helper is plain JavaScript: options meant for the host (a loader, an inspector
  // port) would only slow its start or clash with the host's.
  const { NODE_OPTIONS: _hostOptions, ...env } = process.env;
  const child = fork(helperPath, [], {
    execArgv: helperArgs,
    env,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  hold(child, false);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    if (stderr.length < stderrChars) stderr += text;
  });
  let ended = false;
  const end = (why: string): void => {
    if (ended) return;
    ended = true;
    if (helper === child) helper = undefined;
    const last = stderr.trim().split('\n').at(-1) ?? '';
    const orphans = [...listeners.values()];
    listeners.clear();
    for (const listener of orphans) {
      listener({ kind: 'lost', reason: last ? `${why}: ${last}` : why });
    }
  };
  // An error starting or signalling the helper must never become one on the host; one
  // that started none (no pid) ends it here, as no 'exit' may follow.
  child.on('error', (error) => {
    if (child.pid === undefined) end(`the search helper process did not start: ${error.message}`);
  });
  child.on('message', (message: { id: number } & RunEvent) => {
    const listener = listeners.get(message.id);
    if (message.kind === 'exit' || message.kind === 'failed') finish(message.id, child);
    listener?.(message);
  });
  child.once('exit', (code, signal) => {
    const how = signal ?? `exit ${code}`;
    end(`the search helper process stopped (${how})`);
  });
  return child;
}

/** Keeps the host alive for the helper while runs are live, and never while it is idle. */
function hold(child: ChildProcess, live: boolean): void {
  const handles = [child, child.channel, child.stderr as Socket | null];
  for (const handle of handles) {
    if (live) handle?.ref();
    else handle?.unref();
  }
}

function finish(id: number, child: ChildProcess): void {
  listeners.delete(id);
  if (listeners.size === 0) hold(child, false);
}
