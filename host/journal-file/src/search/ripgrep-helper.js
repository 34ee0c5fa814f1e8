// @ts-check
// The helper process that starts ripgrep for searches. Node's `spawn` forks the process
// that calls it, and a fork copies the page tables of that whole process: in the host it
// would freeze every thread that touches memory meanwhile (the event loop's allocations,
// the garbage collector's copying) for 5-20 ms per rg run and leave its pages
// copy-on-write. Forking this small process costs the host nothing. It also splits and parses
// rg's JSON output, so the host receives parsed matches in batches. Plain JavaScript, run
// by the host's own `node` with no loader. It ends, killing its rg runs, when the host's
// IPC channel closes (the host exited or was killed).
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { createReadStream } from 'node:fs';

const send = process.send?.bind(process);
if (send === undefined) throw new Error('ripgrep-helper.js runs as a child with an IPC channel');

/**
 * @typedef {{ kind: 'run', id: number, program: string, args: string,
 *   stdin: { path: string, start: number } | undefined, maxOutputBytes: number }} RunJob
 * @typedef {{ kind: 'kill', id: number } | { kind: 'more', id: number }} Control
 * @typedef {{ type: 'match', path: string, offset: number, line: Buffer,
 *   ranges: { start: number, end: number }[] } | { type: 'end', path: string }} Message
 */

/**
 * Batches (chunks of rg output, up to 64 KiB each) sent ahead of the host's reading: the
 * host decodes every batch it is sent, so the ones in flight when a page fills are its
 * waste, while one or two keep the host from waiting on this process.
 */
const inFlight = 3;
/** Most stderr kept for the error of a run that fails. */
const stderrChars = 4096;

/** @type {Map<number, { kill: () => void, more: () => void }>} */
const runs = new Map();

/** Sends to the host while it is there (a host that is gone ends this process). */
const post = (/** @type {object} */ message) => {
  if (process.connected) send(message, () => undefined);
};

process.on('message', (/** @type {RunJob | Control} */ message) => {
  if (message.kind === 'run') start(message);
  else if (message.kind === 'kill') runs.get(message.id)?.kill();
  else runs.get(message.id)?.more();
});
process.once('disconnect', () => {
  for (const run of runs.values()) run.kill();
  process.exit(0);
});

/** @param {RunJob} job */
function start(job) {
  const { id } = job;
  const child = spawn(job.program, job.args.split('\0'), {
    stdio: [job.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const { stdout, stderr: errors } = child;
  if (stdout === null || errors === null) throw new Error('rg was started without pipes');
  let output = 0;
  let stderr = '';
  let capped = false;
  /** @type {Buffer[]} */
  let pending = [];
  /** @type {Message[]} */
  let batch = [];
  // Batches posted that the host has not started reading: a few in flight, so the host
  // rarely waits on this process, and memory stays a few chunks of output per run.
  let unacknowledged = 0;
  let killed = false;
  // The rest of the output is read and dropped: 'close' comes only once stdout has ended.
  const kill = () => {
    killed = true;
    stdout.resume();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const flush = () => {
    if (batch.length === 0) return;
    post(batchMessage(id, batch));
    batch = [];
    unacknowledged++;
    if (unacknowledged >= inFlight) stdout.pause();
  };
  runs.set(id, {
    kill,
    more() {
      unacknowledged = Math.max(0, unacknowledged - 1);
      if (unacknowledged < inFlight) stdout.resume();
    },
  });
  child.once('spawn', () => post({ kind: 'spawned', id }));
  child.once('error', (/** @type {NodeJS.ErrnoException} */ error) => {
    runs.delete(id);
    post({ kind: 'failed', id, code: error.code ?? '', message: error.message });
  });
  if (job.stdin !== undefined && child.stdin !== null) {
    const input = createReadStream(job.stdin.path, { start: job.stdin.start });
    input.on('error', () => child.stdin?.end());
    child.stdin.on('error', () => input.destroy());
    input.pipe(child.stdin);
  }
  errors.setEncoding('utf8');
  errors.on('data', (/** @type {string} */ text) => {
    if (stderr.length < stderrChars) stderr += text;
  });
  stdout.on('data', (/** @type {Buffer} */ chunk) => {
    if (killed) return;
    output += chunk.length;
    if (output > job.maxOutputBytes) {
      capped = true;
      kill();
      return;
    }
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      pending.push(chunk.subarray(from, nl));
      const line = pending.length === 1 ? pending[0] : Buffer.concat(pending);
      pending = [];
      from = nl + 1;
      const message = line === undefined ? undefined : parseMessage(line);
      if (message !== undefined) batch.push(message);
    }
    if (from < chunk.length) pending.push(chunk.subarray(from));
    // Each chunk of output is one batch, so the first matches reach the host at once.
    flush();
  });
  child.once('close', (code, signal) => {
    runs.delete(id);
    if (!killed) flush();
    post({ kind: 'exit', id, code, signal, stderr, capped });
  });
}

/**
 * One IPC message for a batch: the matched lines in one buffer, each match naming its
 * line by range, so the host decodes one buffer per batch rather than one per line.
 * @param {number} id
 * @param {Message[]} batch
 */
function batchMessage(id, batch) {
  /** @type {Buffer[]} */
  const lines = [];
  let at = 0;
  const messages = batch.map((message) => {
    if (message.type === 'end') return message;
    const { line, ...rest } = message;
    lines.push(line);
    at += line.length;
    return { ...rest, lineStart: at - line.length, lineEnd: at };
  });
  return { kind: 'messages', id, lines: Buffer.concat(lines, at), messages };
}

/**
 * @typedef {{ type?: string, data?: { path?: { text?: string },
 *   lines?: { text?: string, bytes?: string }, absolute_offset?: number,
 *   submatches?: { start: number, end: number }[] } }} RgJson
 */

/**
 * One line of `rg --json`: a match (its line as bytes, its absolute offset and submatch
 * ranges) or a file's end; undefined for every other message.
 * @param {Buffer} raw
 * @returns {Message | undefined}
 */
function parseMessage(raw) {
  /** @type {RgJson} */
  let parsed;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  const { data } = parsed;
  const path = data?.path?.text;
  if (path === undefined) return undefined;
  if (parsed.type === 'end') return { type: 'end', path };
  if (parsed.type !== 'match' || data?.lines === undefined) return undefined;
  const line =
    data.lines.text !== undefined
      ? Buffer.from(data.lines.text, 'utf8')
      : Buffer.from(data.lines.bytes ?? '', 'base64');
  return {
    type: 'match',
    path,
    offset: data.absolute_offset ?? 0,
    line,
    ranges: (data.submatches ?? []).map((m) => ({ start: m.start, end: m.end })),
  };
}
