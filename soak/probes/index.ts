import type { Probe } from '../lib/probe.js';
import { diskFull } from './disk-full.js';
import { followAbortCycles, stalledFollowers } from './follow-leaks.js';
import { manyFollowers } from './followers.js';
import { fuzzJournals } from './fuzz-journals.js';
import { fuzzRequests } from './fuzz-requests.js';
import { hostileBodies } from './hostile-bodies.js';
import { hostileTools } from './hostile-tools.js';
import { killDuringAppends } from './kill-during-appends.js';
import { readOnlyDir } from './read-only-dir.js';
import { slowClients } from './slow-clients.js';
import { twoHosts } from './two-hosts.js';

/** Every probe, in the order of the table. */
export const probes: readonly Probe[] = [
  killDuringAppends,
  diskFull,
  readOnlyDir,
  manyFollowers,
  stalledFollowers,
  followAbortCycles,
  fuzzRequests,
  hostileBodies,
  slowClients,
  fuzzJournals,
  twoHosts,
  hostileTools,
];
