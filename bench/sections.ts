import type { BenchRow } from './bench-row.js';
import { catalogBench } from './catalog-bench.js';
import { coldPageBench } from './cold-page-bench.js';
import { compactionBench } from './compaction-bench.js';
import { fanoutBench } from './fanout-bench.js';
import { followBench } from './follow-bench.js';
import { liveHostBench } from './live-host-bench.js';
import { liveOutputBench } from './live-output-bench.js';
import { postgresBench } from './postgres-bench.js';
import { searchBench } from './search-bench.js';
import { tuiBench, tuiMemoryBench, tuiResizeBench } from './tui-bench.js';
import { webBench } from './web-bench.js';
import { webScrollBench } from './web-scroll-bench.js';

/** Further benchmark sections by name; each gets `quick` and returns its rows. */
export const sections: ReadonlyArray<readonly [string, (quick: boolean) => Promise<BenchRow[]>]> = [
  ['catalog', catalogBench],
  ['cold', coldPageBench],
  ['compaction', compactionBench],
  ['fanout', fanoutBench],
  ['follow', followBench],
  // The client fold per delta byte, then the host at 1 MB/s and append-to-visible latency.
  ['live', async (quick) => [...(await liveOutputBench(quick)), ...(await liveHostBench(quick))]],
  ['postgres', postgresBench],
  ['search', searchBench],
  ['tui', tuiBench],
  ['tui-memory', tuiMemoryBench],
  ['tui-resize', tuiResizeBench],
  ['web', () => webBench()],
  ['web-scroll', (quick) => webScrollBench(quick ? 1_000 : 10_000)],
];
