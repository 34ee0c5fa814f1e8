import type { Input } from './turn-steps.js';

/**
 * The input a session holds while a turn runs: prompts queued for later turns and steering
 * messages the running turn takes at its next step.
 */
export interface InputQueues {
  /** Queues a prompt for a later turn; resolves its 1-based position. */
  queue(input: Input): number;
  /** Holds a steering message for the running turn's next step. */
  steer(input: Input): void;
  /** The next queued prompt, if any. */
  next(): Input | undefined;
  /** Takes every steering message held so far. */
  takeSteering(): Input[];
  hasSteering(): boolean;
  /** Drops everything queued and held; returns how many inputs it dropped. */
  clear(): number;
}

/** Creates empty input queues. */
export function createInputQueues(): InputQueues {
  let queued: Input[] = [];
  let steering: Input[] = [];
  return {
    queue: (input) => queued.push(input),
    steer: (input) => void steering.push(input),
    next: () => queued.shift(),
    takeSteering: () => steering.splice(0),
    hasSteering: () => steering.length > 0,
    clear() {
      const dropped = queued.length + steering.length;
      queued = [];
      steering = [];
      return dropped;
    },
  };
}
