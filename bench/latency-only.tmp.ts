import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withHost } from './fanout-host.js';
import { latencyRows } from './fanout-latency-rows.js';
import { startPacedModel } from './paced-model.js';
const counts = (process.argv[2] ?? '100,1000').split(',').map(Number);
const dir = await mkdtemp(join(tmpdir(), 'dsh-l-'));
const model = await startPacedModel();
const profiled: any[] = [];
for (const n of counts) {
  const rows = await withHost(dir, model, `latency-${n}`, (bench) => latencyRows(bench, n, { pacedChunks: 250, paceMs: 40 } as any), profiled);
  for (const r of [...rows, ...profiled.splice(0)]) console.log(r.name, '|', typeof r.value === 'number' ? r.value.toFixed(1) : r.value, r.unit, '|', r.note);
}
process.exit(0);
