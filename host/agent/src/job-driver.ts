import type { Input } from './input-queue.js';
import { runCompaction } from './run-compaction.js';
import { runTurn, type TurnSession } from './run-turn.js';

/** Work a session runs in order: a turn, or a compaction a person asked for while idle. */
export type Job = Input | { readonly compact: string };

/** Runs the jobs of one session one at a time: the first, then what waits behind it. */
export interface JobDriver {
  /** The job running now, which Cancel aborts and waits for. */
  readonly active:
    { readonly controller: AbortController; readonly done: Promise<void> } | undefined;
  /**
   * Starts `first` and the jobs after it: a compaction asked for meanwhile, else the next
   * queued input. Resolves once the first turn's opening events are durable.
   */
  start(first: Job): Promise<void>;
  /** Resolves when no job runs and nothing is queued. */
  idle(): Promise<void>;
}

/** Creates the driver of one session whose journal's last turn is `lastTurn`. */
export function createJobDriver(
  turns: TurnSession,
  lastTurn: number,
  onStatus: (running: boolean) => void,
): JobDriver {
  const sessionId = turns.journal.header.sessionId;
  let active: JobDriver['active'];
  let drive: Promise<void> = Promise.resolve();

  async function run(job: Job, started: (error?: unknown) => void): Promise<void> {
    const controller = new AbortController();
    let finish!: () => void;
    active = { controller, done: new Promise((resolve) => (finish = resolve)) };
    try {
      if ('compact' in job) {
        const scope = turns.fitScope(lastTurn, controller.signal);
        await runCompaction(scope, turns.leftOpen, sessionId, job.compact);
      } else {
        const turn = ++lastTurn;
        if (!(await runTurn(turns, turn, controller, job, started))) lastTurn = turn - 1;
      }
    } finally {
      finish();
    }
  }

  return {
    get active() {
      return active;
    },
    start(first) {
      let started!: (error?: unknown) => void;
      const recorded = new Promise<void>((resolve, reject) => {
        started = (error) => (error === undefined ? resolve() : reject(error));
      });
      onStatus(true);
      drive = (async () => {
        let next: Job | undefined = first;
        while (next) {
          await run(next, started);
          const asked = turns.takeRequested();
          next = asked !== undefined ? { compact: asked.instruction } : turns.inputs.shift();
        }
        active = undefined;
        onStatus(false);
      })();
      return recorded;
    },
    idle: () => drive,
  };
}
