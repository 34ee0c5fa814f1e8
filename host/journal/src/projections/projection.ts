import type { JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import type { Baseline } from '@dsh/gen/service';

/** The fields of a `Baseline` that projections fill (everything but `beforeSeq`). */
export type BaselineFields = Partial<Omit<Baseline, 'beforeSeq' | '$typeName' | '$unknown'>>;

/**
 * A pure fold over a session's events whose state can be snapshotted as JSON and
 * restored, so the journal can keep cheap checkpoints and compute a baseline for any
 * seq. `fold` must return the state unchanged for every type outside `reads` and may
 * only look at the listed payload fields: a journal scan decodes just those.
 */
export interface Projection<S> {
  readonly name: string;
  /**
   * What `fold` depends on besides the events (a price table), as a string: persisted
   * checkpoints folded under another key are not reused.
   */
  readonly key?: string;
  /** Journal type -> the payload fields (JSON names) `fold` reads of events of that type. */
  readonly reads: Readonly<Record<string, readonly string[]>>;
  initial(): S;
  fold(state: S, event: SessionEvent): S;
  snapshot(state: S): JsonValue;
  restore(snapshot: JsonValue): S;
  /** The baseline fields this projection contributes. */
  toBaseline(state: S): BaselineFields;
}
