import { describe, expect, it } from 'vitest';
import { assistantMessage, events, usage, userMessage } from '@dsh/fixtures';
import {
  checkpointInterval,
  ProjectionCheckpoints,
  SnapshotText,
} from '../src/projection-checkpoints.js';
import { createProjectionRegistry } from '../src/projections/index.js';

const registry = createProjectionRegistry();

/** Checkpoints folded over `blocks` whole blocks of messages that report usage. */
function folded(blocks: number): ProjectionCheckpoints {
  const checkpoints = new ProjectionCheckpoints(registry);
  const payloads = [];
  for (let i = 0; i < (blocks * checkpointInterval) / 2; i += 1) {
    payloads.push(userMessage(`q${i}`), assistantMessage({ turn: i }, [`a${i}`], usage(i, 1)));
  }
  for (const event of events(payloads)) checkpoints.advance(event);
  return checkpoints;
}

const texts = (checkpoints: ProjectionCheckpoints, from: number, to: number) => {
  const out: SnapshotText[] = [];
  for (let i = from; i < to; i += 1)
    out.push(new SnapshotText(JSON.stringify(checkpoints.snapshot(i))));
  return out;
};

describe('ProjectionCheckpoints.resume()', () => {
  const whole = folded(4);
  it.each([
    { name: 'from the initial snapshot on', first: 0 },
    { name: 'from its last snapshot only (an index read from its end)', first: 4 },
    { name: 'from a middle snapshot on', first: 2 },
  ])('$name: serves the checkpoints it was given and the same live state', ({ first }) => {
    const resumed = ProjectionCheckpoints.resume(registry, texts(whole, first, 5), first);
    expect(resumed.length).toBe(4 * checkpointInterval);
    for (const seq of [4 * checkpointInterval, 4 * checkpointInterval - 1]) {
      if (Math.floor(seq / checkpointInterval) >= first) {
        expect(resumed.checkpointFor(seq)).toEqual(whole.checkpointFor(seq));
      }
    }
    if (first > 1) expect(resumed.snapshot(1)).toBeUndefined();
  });

  it('fill() sets the snapshots a resume from a later one left out', () => {
    const resumed = ProjectionCheckpoints.resume(registry, texts(whole, 4, 5), 4);
    resumed.fill(1, texts(whole, 1, 4));
    for (let seq = 0; seq <= 4 * checkpointInterval; seq += 97) {
      expect(resumed.checkpointFor(seq)).toEqual(whole.checkpointFor(seq));
    }
  });
});
