/**
 * Writes every fixture scenario as a journal file in the real journal format:
 * `node host/cli/bin/run-ts.js host/cli/scripts/write-fixtures.ts [--out DIR]` (`npm run fixtures`).
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { events, scenarios, type Scenario } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { encodeHeaderLine, formatVersion, encodeEventLine, parseSessionId } from '@dsh/journal';

/** The creation time written into every fixture header; event times start here too. */
export const fixtureCreatedAt = '2026-01-01T00:00:00.000Z';

/** The whole journal file of a scenario: header line, one line per event, newline-terminated. */
export function scenarioJournal(scenario: Scenario): string {
  const id = parseSessionId(scenario.name);
  if (!id.ok) throw new Error(`scenario ${scenario.name}: ${id.error}`);
  const header = encodeHeaderLine({
    formatVersion,
    sessionId: id.value,
    cwd: scenario.cwd,
    parentId: '',
    createdAt: fixtureCreatedAt,
    model: 'demo',
    title: scenario.title,
  });
  const lines = events(scenario.payloads, 0, Date.parse(fixtureCreatedAt)).map(encodeEventLine);
  return `${[header, ...lines].join('\n')}\n`;
}

/**
 * Writes `<name>.jsonl` for every scenario into `dir` and removes journals of scenarios
 * that no longer exist. Returns the file names written, in registry order.
 */
export async function writeFixtures(dir: string = journalsDir): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const names = scenarios.map((s) => `${s.name}.jsonl`);
  if (new Set(names).size !== names.length) throw new Error('two scenarios share a name');
  for (const scenario of scenarios) {
    await writeFile(join(dir, `${scenario.name}.jsonl`), scenarioJournal(scenario));
  }
  for (const file of await readdir(dir)) {
    if (file.endsWith('.jsonl') && !names.includes(file)) await rm(join(dir, file));
  }
  return names;
}

async function main(args: string[]): Promise<void> {
  const at = args.indexOf('--out');
  const out = at >= 0 ? args[at + 1] : journalsDir;
  if (out === undefined || out === '') {
    console.error('usage: write-fixtures.ts [--out DIR]');
    process.exit(2);
  }
  const written = await writeFixtures(resolve(out));
  console.log(`wrote ${written.length} journals to ${resolve(out)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
