import { JournalError } from '@dsh/journal';
import { startOnHelper, type HelperJob, type RunEvent } from './start-on-helper.js';

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
  /** The ripgrep program (`ripgrepProgram` unless given). */
  readonly program?: string;
}

/** A running ripgrep: its messages in order, and whether a budget ended it early. */
export interface RipgrepRun {
  readonly messages: AsyncGenerator<RipgrepMessage, void, undefined>;
  /** True once the run was killed at its deadline or output cap. */
  readonly timedOut: () => boolean;
}

/**
 * Runs `rg --json` as a subprocess of the ripgrep helper process (`spawn` forks the
 * process that calls it, which never is the host, and the pattern never runs in the
 * host). The run is killed at its deadline, its output cap or the signal. Its output
 * comes parsed, in batches, with backpressure, so memory holds a batch or two whatever
 * the number of matches. Missing ripgrep is `unavailable` naming the package.
 */
export function runRipgrep(args: readonly string[], options: RipgrepRunOptions): RipgrepRun {
  let timedOut = false;
  const events = eventQueue();
  const run = startOnHelper(job(args, options), events.push);
  const timer = setTimeout(
    () => {
      timedOut = true;
      run.kill();
    },
    Math.max(0, options.deadline - Date.now()),
  );
  const kill = (): void => run.kill();
  options.signal.addEventListener('abort', kill, { once: true });

  async function* messages(): AsyncGenerator<RipgrepMessage, void, undefined> {
    try {
      for (;;) {
        const event = await events.next();
        switch (event.kind) {
          case 'spawned':
            break;
          case 'failed':
            throw startFailure(event);
          case 'lost':
            throw new JournalError('unavailable', `${event.reason}: search again`);
          case 'exit':
            if (event.capped) timedOut = true;
            return;
          case 'messages':
            run.more();
            for (const message of event.messages) {
              if (message.type === 'end') {
                yield message;
                continue;
              }
              const { lineStart, lineEnd, ...match } = message;
              const { buffer, byteOffset } = event.lines;
              yield {
                ...match,
                line: Buffer.from(buffer, byteOffset + lineStart, lineEnd - lineStart),
              };
            }
            break;
          default:
            event satisfies never;
        }
      }
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', kill);
      run.kill();
    }
  }
  return { messages: messages(), timedOut: () => timedOut };
}

function job(args: readonly string[], options: Partial<RipgrepRunOptions>): HelperJob {
  return {
    program: options.program ?? ripgrepProgram,
    args,
    stdin: options.stdin,
    maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
  };
}

/** The events of one run, taken in order by one reader. */
function eventQueue(): { push: (event: RunEvent) => void; next: () => Promise<RunEvent> } {
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  return {
    push(event) {
      queue.push(event);
      wake?.();
      wake = undefined;
    },
    async next() {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return queue.shift()!;
    },
  };
}

function startFailure(event: { code: string; message: string }): JournalError {
  return event.code === 'ENOENT'
    ? new JournalError('unavailable', ripgrepMissing)
    : new JournalError('unavailable', `search could not start ripgrep: ${event.message}`);
}

/** Most time a pattern may take to compile. */
const compileMs = 2000;

/**
 * Compiles a regex the way a search will run it, on no input: a pattern ripgrep refuses
 * is `invalid_argument` with ripgrep's reason.
 */
export async function checkRipgrepPattern(
  args: readonly string[],
  program = ripgrepProgram,
): Promise<void> {
  const events = eventQueue();
  const run = startOnHelper(job([...args, '-'], { program }), events.push);
  const timer = setTimeout(() => run.kill(), compileMs);
  let exit: Extract<RunEvent, { kind: 'exit' }>;
  try {
    for (;;) {
      const event = await events.next();
      if (event.kind === 'failed') throw startFailure(event);
      if (event.kind === 'lost') {
        throw new JournalError('unavailable', `${event.reason}: search again`);
      }
      if (event.kind === 'exit') {
        exit = event;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  if (exit.code === null) {
    throw new JournalError(
      'invalid_argument',
      `the search regex did not compile within ${compileMs} ms: simplify it (fewer or smaller repetitions)`,
    );
  }
  if (exit.code === 2) {
    const reason = exit.stderr
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
