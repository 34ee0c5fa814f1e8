/**
 * `node host/cli/bin/run-ts.js bench/assembly-profile.ts [SIZE...]`: runs only the assembly
 * section for the given sizes (default 10,000 and 100,000) and prints its rows.
 */
import { assemblyBench } from './assembly-bench.js';

const sizes = process.argv.slice(2).map(Number).filter(Number.isFinite);
for (const size of sizes.length > 0 ? sizes : [10_000, 100_000]) {
  for (const row of await assemblyBench(size)) {
    console.log(`${row.name}: ${row.value.toFixed(row.value >= 100 ? 0 : 3)} ${row.unit}`);
  }
}
