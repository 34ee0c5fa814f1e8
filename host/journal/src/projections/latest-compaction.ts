import { create, type JsonValue } from '@bufbuild/protobuf';
import { CompactionMarkSchema } from '@dsh/gen/service';
import type { Projection } from './projection.js';

/** Where the latest `context/compaction` is and what it kept. */
export interface CompactionMarkState {
  readonly seq: number;
  readonly keptFromSeq: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/**
 * The latest `context/compaction`: its seq and where the model's history it left
 * starts, so an agent reopening a long session reads from there instead of seq 0.
 */
export const latestCompaction: Projection<CompactionMarkState | undefined> = {
  name: 'latestCompaction',
  reads: { 'context/compaction': ['keptFromSeq', 'tokensBefore', 'tokensAfter'] },
  initial: () => undefined,
  fold(state, event) {
    const { payload } = event;
    if (payload.case !== 'contextCompaction') return state;
    const { keptFromSeq, tokensBefore, tokensAfter } = payload.value;
    return { seq: event.seq, keptFromSeq, tokensBefore, tokensAfter };
  },
  snapshot: (state) => (state === undefined ? null : ({ ...state } as unknown as JsonValue)),
  restore: (snapshot) =>
    snapshot === null || typeof snapshot !== 'object'
      ? undefined
      : ({ ...(snapshot as object) } as CompactionMarkState),
  toBaseline: (state) =>
    state === undefined ? {} : { latestCompaction: create(CompactionMarkSchema, { ...state }) },
};
