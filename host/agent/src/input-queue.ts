import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '@dsh/gen/content';
import { UnqueueReason } from '@dsh/gen/events';
import type { EventPayload, WaitingInput } from '@dsh/journal';
import { AgentError } from './agent-error.js';
import type { EventRecorder } from './event-recorder.js';
import { payloads } from './payloads.js';

/** An input waiting in the queue, as Cancel returns it. */
export interface QueuedInputFacts {
  readonly queueId: string;
  readonly content: ContentBlock[];
  readonly steer: boolean;
  /** Seq of its `input/queued`; 0 while that is not durable yet. */
  readonly seq: number;
}

/** One input a turn takes: a prompt, or one that waited in the queue. */
export interface Input {
  readonly content: ContentBlock[];
  readonly source: string;
  /** Set for input that waited in the queue: its `input/queued` id. */
  readonly queueId?: string;
  readonly steer?: boolean;
  /** Seq of its `input/queued` once durable. */
  seq?: number;
}

/**
 * The inputs of one session that wait for the running turn: the queue (each a turn of its
 * own, in order) and steering (taken into the running turn before its next step). Every
 * change is recorded as `input/queued` or `input/unqueued`.
 */
export interface InputQueue {
  /** Records an input that waits for the running turn; it joins its list at once. */
  enqueue(content: ContentBlock[], steer: boolean): Promise<Input>;
  /** The 1-based place of a queued input in the queue. */
  position(input: Input): number;
  /** Takes the next queued input, if any. */
  shift(): Input | undefined;
  /** Puts a queued input a turn could not open (the store unreachable) back at the front. */
  requeue(input: Input): void;
  /** Takes all steering input, in order. */
  takeSteering(): Input[];
  readonly steeringCount: number;
  /** Removes every waiting input (recorded as CLEARED) and returns them, queue first. */
  clear(): Promise<QueuedInputFacts[]>;
  /** Drops every waiting input (recorded as DROPPED, best effort) after `turn` failed to write. */
  drop(turn: number): void;
  /** Replaces a waiting input's content (in place), or removes it when `content` is empty. */
  edit(queueId: string, content: ContentBlock[]): Promise<{ previous: ContentBlock[] }>;
}

/** The `input/unqueued` that precedes the events carrying a waiting input, if it waited. */
export function unqueued(input: Input, reason: UnqueueReason): EventPayload[] {
  return input.queueId === undefined ? [] : [payloads.inputUnqueued(input.queueId, reason)];
}

function facts(input: Input): QueuedInputFacts {
  return {
    queueId: input.queueId ?? '',
    content: input.content,
    steer: input.steer ?? false,
    seq: input.seq ?? 0,
  };
}

/**
 * Creates the input queue of a session. Inputs the journal shows waiting (a host stopped
 * while they were queued) join the queue, in order, as turns of their own: no turn is
 * running to steer.
 */
export function createInputQueue(
  sessionId: string,
  recorder: EventRecorder,
  waiting: readonly WaitingInput[],
): InputQueue {
  let queue: Input[] = waiting.map((input) => ({
    content: [...input.content],
    source: 'queued',
    queueId: input.queueId,
    steer: false,
    seq: input.seq,
  }));
  let steering: Input[] = [];

  return {
    async enqueue(content, steer) {
      const queueId = `q-${randomUUID()}`;
      const input: Input = { content, source: steer ? 'user' : 'queued', queueId, steer };
      const recorded = recorder.record([payloads.inputQueued(queueId, content, steer)]);
      // The recorder appends in call order: a turn that takes this input records its
      // `input/unqueued` after this `input/queued`.
      (steer ? steering : queue).push(input);
      try {
        input.seq = (await recorded)[0]?.seq;
      } catch (cause) {
        queue = queue.filter((item) => item !== input);
        steering = steering.filter((item) => item !== input);
        throw cause;
      }
      return input;
    },
    position: (input) => queue.indexOf(input) + 1,
    shift: () => queue.shift(),
    requeue: (input) => void queue.unshift(input),
    takeSteering() {
      const steer = steering;
      steering = [];
      return steer;
    },
    get steeringCount() {
      return steering.length;
    },
    async clear() {
      const cleared = [...queue, ...steering];
      queue = [];
      steering = [];
      const records = cleared.flatMap((input) => unqueued(input, UnqueueReason.CLEARED));
      if (records.length > 0) await recorder.record(records);
      return cleared.map(facts);
    },
    // Input queued behind a turn the journal could not take would fail the same way.
    drop(turn) {
      if (queue.length === 0 && steering.length === 0) return;
      console.error(
        `dsh: session ${sessionId}: dropping ${queue.length + steering.length} queued input(s): ` +
          `turn ${turn} could not be written to the journal`,
      );
      const dropped = [...queue, ...steering].flatMap((input) =>
        unqueued(input, UnqueueReason.DROPPED),
      );
      queue = [];
      steering = [];
      // Best effort: the journal just refused a write; a restart replays what it still shows.
      if (dropped.length > 0) void recorder.record(dropped).catch(() => undefined);
    },
    async edit(queueId, content) {
      const list = [queue, steering].find((inputs) => inputs.some((i) => i.queueId === queueId));
      const index = list?.findIndex((input) => input.queueId === queueId) ?? -1;
      const input = list?.[index];
      if (list === undefined || input === undefined) {
        throw new AgentError(
          'failed_precondition',
          `no input "${queueId}" is waiting in session ${sessionId}: ` +
            'it already started, or was removed or cleared',
        );
      }
      if (content.length === 0) {
        list.splice(index, 1);
        await recorder.record([payloads.inputUnqueued(queueId, UnqueueReason.REMOVED)]);
      } else {
        list[index] = { ...input, content };
        await recorder.record([payloads.inputQueued(queueId, content, input.steer ?? false)]);
      }
      return { previous: input.content };
    },
  };
}
