import { join } from 'node:path';
import { journalsDir } from '@dsh/fixtures/journals';
import type { RowResult } from '../lib/probe.js';

/** A small journal of the repository's fixtures, copied into data dirs the host is given. */
export const fixtureJournal = join(journalsDir, 'approvals.jsonl');

/** The row of a probe that cannot run here, with the reason. */
export function skipped(probe: string, why: string): RowResult {
  return { probe, tried: 0, failed: 0, lost: null, required: true, note: '', skipped: why };
}
