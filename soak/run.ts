/**
 * `npm run soak`: the reliability suite. Runs every probe against real `dsh serve`
 * processes on 127.0.0.1, prints the table, writes soak/RESULTS.md and
 * soak/RESULTS.json, and exits 1 when a required row failed or lost anything.
 * `npm run soak -- --short` is the CI-sized run (results in soak/results/short.*);
 * `--only NAME[,NAME]` runs the named probes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeModel } from './lib/fake-model.js';
import { killAllHosts } from './lib/host-process.js';
import type { Probe } from './lib/probe.js';
import { exitStatus, resultsTable, type Row } from './lib/row.js';
import { createSoakContext } from './lib/soak-context.js';
import { unmountAll } from './lib/tmpfs.js';
import { probes } from './probes/index.js';

const { values } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const short = values.short === true;
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !probes.some((p) => p.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `soak: unknown probe ${unknown.join(', ')}; probes: ${probes.map((p) => p.name).join(', ')}`,
  );
  process.exit(2);
}
const chosen = probes.filter((p) => (only ? only.includes(p.name) : !short || p.short));
/** A probe that runs longer than this is stopped and reported as failed. */
const probeBudgetMs = short ? 180_000 : 600_000;

// Latency budgets are the host's, not the machine's: on a box shared with other work the
// soak and its hosts (children inherit it) run at a raised priority when allowed to.
const priority = raisePriority();
const root = import.meta.dirname;
const scratch = mkdtempSync(join(tmpdir(), 'dsh-soak-'));
const model = await startFakeModel();
const ctx = createSoakContext({ short, scratch, model });
const rows: Row[] = [];
const started = Date.now();
// An interrupted run still stops its hosts, unmounts its tmpfs and removes its scratch dir.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    ctx.log(`${signal}: stopping`);
    writeResults(false);
    void killAllHosts().finally(() => {
      unmountAll();
      if (!values.keep) rmSync(scratch, { recursive: true, force: true });
      process.exit(130);
    });
  });
}
for (const probe of chosen) {
  ctx.log(`${probe.name}...`);
  const t0 = Date.now();
  for (const row of await runProbe(probe)) rows.push({ ...row, ms: Date.now() - t0 });
  await ctx.stopHosts();
  writeResults(false);
}

await model.close();
if (!values.keep) rmSync(scratch, { recursive: true, force: true });
else ctx.log(`scratch kept in ${scratch}`);
const status = writeResults(true);
process.exit(status);

/**
 * Writes the table and the JSON of the rows so far (after every probe, so an interrupted
 * run leaves what it measured) and returns the exit status they give.
 */
function writeResults(complete: boolean): number {
  const table = resultsTable(rows);
  const when = new Date().toISOString();
  const machine = `${cpus().length} cores, Node ${process.version}, ${priority}`;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const status = exitStatus(rows);
  const done = complete ? '' : `, incomplete: ${rows.length} rows so far`;
  if (complete) {
    console.log(table);
    console.log(`\nsoak: ${rows.length} rows in ${minutes} min; exit ${status}`);
  }
  const outDir = short || only ? join(root, 'results') : root;
  const base = short ? 'short' : only ? 'only' : 'RESULTS';
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, `${base}.json`),
    `${JSON.stringify({ when, machine, short, complete, minutes: Number(minutes), status, rows }, null, 2)}\n`,
  );
  writeFileSync(
    join(outDir, `${base}.md`),
    `# Soak results\n\n\`npm run soak${short ? ' -- --short' : ''}\` on ${when} (${machine}), ${minutes} min, exit ${status}${done}.\n` +
      `Columns and probes are described in [README.md](${outDir === root ? '' : '../'}README.md).\n\n${table}\n`,
  );
  return status;
}

function raisePriority(): string {
  try {
    setPriority(-10);
    return 'nice -10';
  } catch {
    return 'nice 0 (raising it needs root)';
  }
}

async function runProbe(probe: Probe) {
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`ran past its ${probeBudgetMs / 1000} s budget`)),
      probeBudgetMs,
    );
  });
  try {
    return await Promise.race([probe.run(ctx), overtime]);
  } catch (error) {
    return [
      {
        probe: probe.name,
        tried: 1,
        failed: 1,
        lost: null,
        required: true,
        note: `the probe itself failed: ${error instanceof Error ? error.message : String(error)}`.slice(
          0,
          400,
        ),
      },
    ];
  } finally {
    clearTimeout(timer);
  }
}
