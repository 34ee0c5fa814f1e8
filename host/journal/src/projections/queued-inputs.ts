import { create, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { QueuedInputSchema } from '@dsh/gen/service';
import type { Projection } from './projection.js';

/** One input waiting in a session's queue. */
export interface WaitingInput {
  readonly queueId: string;
  readonly content: readonly ContentBlock[];
  readonly steer: boolean;
  /** Seq of the `input/queued` that first queued it. */
  readonly seq: number;
}

/**
 * The inputs waiting in the queue, in queue order: an `input/queued` adds one (or, for an
 * id already waiting, replaces its content in place), an `input/unqueued` takes it out.
 */
export const queuedInputs: Projection<readonly WaitingInput[]> = {
  name: 'queuedInputs',
  reads: { 'input/queued': ['queueId', 'content', 'steer'], 'input/unqueued': ['queueId'] },
  initial: () => [],
  fold(state, event) {
    const { payload } = event;
    if (payload.case === 'inputQueued') {
      const { queueId, content, steer } = payload.value;
      const at = state.findIndex((input) => input.queueId === queueId);
      if (at === -1) return [...state, { queueId, content, steer, seq: event.seq }];
      return state.map((input, i) => (i === at ? { ...input, content } : input));
    }
    if (payload.case === 'inputUnqueued') {
      const { queueId } = payload.value;
      return state.some((input) => input.queueId === queueId)
        ? state.filter((input) => input.queueId !== queueId)
        : state;
    }
    return state;
  },
  snapshot: (state) =>
    state.map((input) => ({
      queueId: input.queueId,
      steer: input.steer,
      seq: input.seq,
      content: input.content.map((block) => toJson(ContentBlockSchema, block)),
    })),
  restore(snapshot) {
    if (!Array.isArray(snapshot)) return [];
    return snapshot.map((entry) => {
      const { queueId, steer, seq, content } = entry as {
        queueId: string;
        steer: boolean;
        seq: number;
        content: JsonValue[];
      };
      return { queueId, steer, seq, content: content.map((b) => fromJson(ContentBlockSchema, b)) };
    });
  },
  toBaseline: (state) => ({
    queue: state.map((input) =>
      create(QueuedInputSchema, {
        queueId: input.queueId,
        content: [...input.content],
        steer: input.steer,
        seq: input.seq,
      }),
    ),
  }),
};
