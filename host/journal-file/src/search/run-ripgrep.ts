import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { JournalError } from '@dsh/journal';

/** The ripgrep program searches run; Debian and Ubuntu ship it as `ripgrep`. */
export const ripgrepProgram = 'rg';

/** What a search says when ripgrep is not installed. */
export const ripgrepMissing =
  'search needs ripgrep (`rg`), which is not installed on the host: apt-get install ripgrep ' +
  '(Debian/Ubuntu), brew install ripgrep (macOS)';

/** One message of `rg --json` that a search reads. */
export type RipgrepMessage =
  | {
      type: 'match';
      path: string;
      offset: number;
      line: Buffer;
      ranges: { start: number; end: number }[];
    }
  | { type: 'end'; path: string };

/** How a ripgrep run is bounded and fed. */
export interface RipgrepRunOptions {
  /** Search this file from this byte offset as the path `-` (its offsets count from there). */
  readonly stdin?: { readonly path: string; readonly start: number };
  /** Kills the run when it aborts. */
  readonly signal: AbortSignal;
  /** Kills the run at this time (ms since the epoch); the run then reports `timedOut`. */
  readonly deadline: number;
  /** Kills the run past this many bytes of output; the run then reports `timedOut`. */
  readonly maxOutputBytes: number;
}

/** A running ripgrep: its messages in order, and whether a budget ended it early. */
export interface RipgrepRun {
  readonly messages: AsyncGenerator<RipgrepMessage, void, undefined>;
  /** True once the run was killed at its deadline or output cap. */
  readonly timedOut: () => boolean;
}

/**
 * Runs `rg --json` as a subprocess: the pattern never runs on the host's event loop,
 * and the run is killed at its deadline, its output cap or the signal. Its output is
 * read as it comes, with backpressure, so memory holds one line at a time whatever the
 * number of matches. Missing ripgrep is `unavailable` naming the package.
 */
export function runRipgrep(args: readonly string[], options: RipgrepRunOptions): RipgrepRun {
  let timedOut = false;
  const child = spawn(ripgrepProgram, args, {
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new JournalError('unavailable', ripgrepMissing)
          : new JournalError('unavailable', `search could not start ripgrep: ${error.message}`),
      );
    });
  });
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const timer = setTimeout(
    () => {
      timedOut = true;
      kill();
    },
    Math.max(0, options.deadline - Date.now()),
  );
  options.signal.addEventListener('abort', kill, { once: true });
  if (options.stdin !== undefined && child.stdin !== null) {
    const input = createReadStream(options.stdin.path, { start: options.stdin.start });
    input.on('error', () => child.stdin?.end());
    child.stdin.on('error', () => input.destroy());
    input.pipe(child.stdin);
  }
  child.stderr?.resume();

  async function* messages(): AsyncGenerator<RipgrepMessage, void, undefined> {
    try {
      await spawned;
      let output = 0;
      let pending: Buffer[] = [];
      for await (const chunk of child.stdout! as AsyncIterable<Buffer>) {
        output += chunk.length;
        if (output > options.maxOutputBytes) {
          timedOut = true;
          return;
        }
        let from = 0;
        for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
          pending.push(chunk.subarray(from, nl));
          const line = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
          pending = [];
          from = nl + 1;
          const message = parseMessage(line);
          if (message !== undefined) yield message;
        }
        if (from < chunk.length) pending.push(chunk.subarray(from));
      }
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', kill);
      kill();
    }
  }
  return { messages: messages(), timedOut: () => timedOut };
}

interface RgJson {
  type?: string;
  data?: {
    path?: { text?: string };
    lines?: { text?: string; bytes?: string };
    absolute_offset?: number;
    submatches?: { start: number; end: number }[];
  };
}

function parseMessage(raw: Buffer): RipgrepMessage | undefined {
  let parsed: RgJson;
  try {
    parsed = JSON.parse(raw.toString('utf8')) as RgJson;
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

/** Most time a pattern may take to compile. */
const compileMs = 2000;

/**
 * Compiles a regex the way a search will run it, on no input: a pattern ripgrep refuses
 * is `invalid_argument` with ripgrep's reason.
 */
export async function checkRipgrepPattern(args: readonly string[]): Promise<void> {
  const child = spawn(ripgrepProgram, [...args, '-'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), compileMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new JournalError('unavailable', ripgrepMissing)
          : new JournalError('unavailable', `search could not start ripgrep: ${error.message}`),
      ),
    );
    child.once('close', (exit) => resolve(exit));
  }).finally(() => clearTimeout(timer));
  if (code === null) {
    throw new JournalError(
      'invalid_argument',
      `the search regex did not compile within ${compileMs} ms: simplify it (fewer or smaller repetitions)`,
    );
  }
  if (code === 2) {
    const reason = stderr
      .split('\n')
      .filter((line) => line.trim() !== '' && !/pcre2/i.test(line))
      .join('\n')
      .trim();
    throw new JournalError(
      'invalid_argument',
      `the search regex does not compile in ripgrep's dialect (the Rust regex crate: no ` +
        `look-around or backreferences): ${reason}`,
    );
  }
}
