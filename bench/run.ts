/**
 * `npm run bench`: measures the host's page and follow paths and the client fold,
 * prints one table and writes bench/results/latest.json and bench/BENCHMARKS.md.
 * Sizes can be reduced for a quick look: `npm run bench -- --quick`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { assemblyBench } from './assembly-bench.js';
import type { BenchRow } from './bench-row.js';
import { pageBench } from './page-bench.js';
import { sections as extraSections } from './sections.js';

const quick = process.argv.includes('--quick');
// `--only NAME[,NAME]` runs those sections and writes only the JSON (never BENCHMARKS.md).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt < 0 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(','));
const root = join(import.meta.dirname, '..');

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(3);
}

function table(rows: readonly BenchRow[]): string {
  const head = '| section | measure | value | unit | note |\n| --- | --- | ---: | --- | --- |';
  const body = rows.map(
    (r) => `| ${r.section} | ${r.name} | ${format(r.value)} | ${r.unit} | ${r.note ?? ''} |`,
  );
  return [head, ...body].join('\n');
}

const rows: BenchRow[] = [];
const run = async (name: string, fn: () => Promise<BenchRow[]>): Promise<void> => {
  if (only !== undefined && !only.has(name)) return;
  process.stderr.write(`bench: ${name}...\n`);
  try {
    rows.push(...(await fn()));
  } catch (error) {
    rows.push({ section: name, name: 'failed', value: Number.NaN, unit: '', note: String(error) });
  }
};

await run('page', () => pageBench(quick ? [1_000, 10_000] : [1_000, 100_000, 1_000_000]));
await run('assembly', () => assemblyBench(quick ? 10_000 : 100_000));
for (const [name, fn] of extraSections) await run(name, () => fn(quick));

const machine = `${cpus().length} cores, Node ${process.version}`;
const when = new Date().toISOString();
const text = table(rows);
console.log(text);
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/latest.json'),
  `${JSON.stringify({ when, machine, quick, rows }, null, 2)}\n`,
);
if (!quick && only === undefined) {
  writeFileSync(
    join(root, 'bench/BENCHMARKS.md'),
    `# Benchmarks\n\nThe latest \`npm run bench\` (${when}, ${machine}). One run on a shared,\nnoisy machine: read the ratios, not the absolute numbers.\n\n${text}\n`,
  );
}
