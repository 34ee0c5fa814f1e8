import type { JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import type { ProjectionRegistry, ProjectionStates } from './projections/index.js';

/** Events between two checkpoints: a baseline folds at most this many minus one. */
export const checkpointInterval = 256;

/**
 * The projection states of one journal: the live state after its last event, and a
 * snapshot every `checkpointInterval` events, so a baseline for any seq restores the
 * checkpoint at or below it and folds fewer than 256 events.
 */
export class ProjectionCheckpoints {
  private states: ProjectionStates;
  /** A snapshot, or its JSON text until it is first needed (read back from a file). */
  private readonly snapshots: (JsonValue | SnapshotText)[];
  private count = 0;

  constructor(readonly registry: ProjectionRegistry) {
    this.states = registry.initial();
    this.snapshots = [registry.snapshot(this.states)];
  }

  /**
   * Advances past the next event. `event` may be undefined when its type is not in
   * `registry.reads` (no projection reads it, so it need not be decoded).
   */
  advance(event: SessionEvent | undefined): void {
    if (event !== undefined) this.states = this.registry.fold(this.states, event);
    this.count += 1;
    if (this.count % checkpointInterval === 0) {
      this.snapshots.push(this.registry.snapshot(this.states));
    }
  }

  /** Events folded so far. */
  get length(): number {
    return this.count;
  }

  /**
   * The i-th snapshot: the states after the first `i * checkpointInterval` events (what a
   * persisted index stores per block).
   */
  snapshot(i: number): JsonValue | undefined {
    const kept = this.snapshots[i];
    if (!(kept instanceof SnapshotText)) return kept;
    const parsed = JSON.parse(kept.text) as JsonValue;
    this.snapshots[i] = parsed;
    return parsed;
  }

  /**
   * Checkpoints restored from their snapshots (`snapshots[j]` after `(first + j) *
   * checkpointInterval` events; with `first` 0 from the initial states on), positioned
   * after the last one: the live state is the last snapshot restored, so folding goes on
   * from there. The snapshots between the initial one and `first` stay absent (a persisted
   * index read from its end) until `fill` sets them.
   */
  static resume(
    registry: ProjectionRegistry,
    snapshots: readonly (JsonValue | SnapshotText)[],
    first = 0,
  ): ProjectionCheckpoints {
    const checkpoints = new ProjectionCheckpoints(registry);
    const last = first + snapshots.length - 1;
    if (last <= 0) return checkpoints;
    checkpoints.fill(Math.max(first, 1), snapshots.slice(first === 0 ? 1 : 0));
    checkpoints.count = last * checkpointInterval;
    checkpoints.states = registry.restore(checkpoints.snapshot(last)!);
    return checkpoints;
  }

  /** Sets the snapshots from the `first`-th on (ones a `resume` left absent). */
  fill(first: number, snapshots: readonly (JsonValue | SnapshotText)[]): void {
    snapshots.forEach((snapshot, j) => {
      if (first + j > 0) this.snapshots[first + j] = snapshot;
    });
  }

  /** The latest checkpoint at or below `seq`: its seq and restored states. */
  checkpointFor(seq: number): { seq: number; states: ProjectionStates } {
    const i = Math.min(Math.floor(seq / checkpointInterval), this.snapshots.length - 1);
    return { seq: i * checkpointInterval, states: this.registry.restore(this.snapshot(i)!) };
  }
}

/** A checkpoint snapshot kept as its JSON text, parsed the first time it is needed. */
export class SnapshotText {
  constructor(readonly text: string) {}
}
