/**
 * Imports every transcript under a folder (default `../shared/transcripts`, laid out as
 * `claude-code/<project>/...` and `codex/...`) into a fresh data dir, folds each session
 * through card-models as the clients do, and prints one table row per transcript:
 * events, tool calls, cards by kind, Generic cards by reason, rows shown as unknown and
 * import time. `--write` replaces the table in host/import/README.md.
 *
 *   node host/cli/bin/run-ts.js host/import/scripts/import-report.ts [DIR] [--write]
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createConversation, deriveCard, rendererName, type ToolCallBlock } from '@dsh/card-models';
import type { SessionEvent } from '@dsh/gen/events';
import { createJournalStore } from '@dsh/journal-file';
import { findRollouts, findTranscripts, importClaudeCode, importCodex } from '../src/index.js';

const args = process.argv.slice(2);
const write = args.includes('--write');
const repo = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(repo, '../shared/transcripts'));

interface Row {
  file: string;
  format: string;
  bytes: number;
  sessions: number;
  events: number;
  calls: number;
  cards: Map<string, number>;
  generic: Map<string, number>;
  unknown: Map<string, number>;
  ms: number;
}

/** Tools whose card is the Generic one by design (no richer card exists for them). */
const genericByDesign = (name: string): boolean =>
  rendererName(name) === '' || name.startsWith('mcp__') || !knownRenderers.has(rendererName(name));
const knownRenderers = new Set([
  'bash',
  'pwsh',
  'terminal_send',
  'write',
  'edit',
  'str_replace_editor',
  'read',
  'grep',
  'glob',
  'web_search',
  'web_fetch',
  'todo_write',
  'ask_user',
  'skill',
  'run_code',
  'plan',
]);

function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function genericReason(block: ToolCallBlock): string {
  if (block.call === null) return 'result without its call';
  if (!isJsonObject(block.argsRaw)) return `${block.name}: arguments not JSON (redacted)`;
  if (genericByDesign(block.name)) return `${block.name}: no richer card`;
  if (block.status === 'running') return `${block.name}: still running`;
  if (block.status === 'stopped') return `${block.name}: stopped`;
  if (block.status === 'error') return `${block.name}: error result`;
  return `${block.name}: arguments or meta do not fit`;
}

function fold(events: SessionEvent[], cwd: string, row: Row): void {
  const snapshot = createConversation().apply({ kind: 'replace', events });
  const facts = { cwd, home: '/home/user' };
  const blocks: ToolCallBlock[] = [];
  for (const node of snapshot.nodes) {
    if (node.kind === 'unknown') bump(row.unknown, node.type || '(empty)');
    if (node.kind === 'tool-result') blocks.push(node.tool);
    if (node.kind === 'assistant')
      for (const b of node.blocks) if (b.kind === 'tool-call') blocks.push(b.tool);
  }
  for (const block of blocks) {
    row.calls += 1;
    const card = deriveCard(block, facts);
    bump(row.cards, card.body.kind);
    if (card.body.kind === 'generic') bump(row.generic, genericReason(block));
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function list(map: Map<string, number>): string {
  if (map.size === 0) return '–';
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

async function report(): Promise<Row[]> {
  const rows: Row[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'dsh-import-report-'));
  const store = await createJournalStore({ dataDir });
  try {
    const claude = await findTranscripts(join(root, 'claude-code')).catch(() => []);
    const codex = await findRollouts(join(root, 'codex')).catch(() => []);
    const files = [
      ...claude.map((f) => ({ path: f.path, format: 'claude-code' })),
      ...codex.map((f) => ({ path: f.path, format: 'codex' })),
    ];
    for (const file of files) {
      const before = new Set((await store.list()).map((s) => s.header.sessionId));
      const started = performance.now();
      const summary =
        file.format === 'codex'
          ? await importCodex(store, file.path)
          : await importClaudeCode(store, file.path);
      const ms = performance.now() - started;
      const row: Row = {
        file: relative(root, file.path),
        format: file.format,
        bytes: (await stat(file.path)).size,
        sessions: 0,
        events: 0,
        calls: 0,
        cards: new Map(),
        generic: new Map(),
        unknown: new Map(),
        ms,
      };
      for (const failure of summary.failed) bump(row.unknown, `failed: ${failure.error}`);
      for (const id of summary.sessions) {
        if (before.has(id)) continue;
        const journal = await store.open(id);
        const events = await journal.read(0, journal.length);
        row.sessions += 1;
        row.events += events.length;
        fold(events, journal.header.cwd, row);
      }
      if (summary.skipped.length > 0 && row.sessions === 0) row.format += ' (skipped)';
      rows.push(row);
    }
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
}

function table(rows: Row[]): string {
  const head =
    '| transcript | format | KiB | sessions | events | tool calls | cards by kind | Generic by reason | unknown rows | import ms |\n' +
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: |';
  const body = rows.map((r) => {
    const name = r.file.length > 60 ? `…${basename(r.file).slice(-48)}` : r.file;
    const unknown = [...r.unknown.values()].reduce((a, b) => a + b, 0);
    return `| ${name} | ${r.format} | ${Math.round(r.bytes / 1024)} | ${r.sessions} | ${r.events} | ${r.calls} | ${list(r.cards)} | ${list(r.generic)} | ${unknown === 0 ? '0' : `${unknown}: ${list(r.unknown)}`} | ${Math.round(r.ms)} |`;
  });
  const total = (pick: (r: Row) => number) => rows.reduce((sum, r) => sum + pick(r), 0);
  const unknownTotal = total((r) => [...r.unknown.values()].reduce((a, b) => a + b, 0));
  body.push(
    `| **all ${rows.length}** | | ${Math.round(total((r) => r.bytes) / 1024)} | ${total((r) => r.sessions)} | ${total((r) => r.events)} | ${total((r) => r.calls)} | | | ${unknownTotal} | ${Math.round(total((r) => r.ms))} |`,
  );
  return `${head}\n${body.join('\n')}`;
}

const rows = await report();
const text = table(rows);
process.stdout.write(`${text}\n`);
if (write) {
  const readme = join(repo, 'host/import/README.md');
  const current = await readFile(readme, 'utf8');
  const start = '<!-- import-report:start -->';
  const end = '<!-- import-report:end -->';
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from === -1 || to === -1) throw new Error(`${readme} has no ${start} ... ${end} markers`);
  const next = `${current.slice(0, from + start.length)}\n\n${text}\n\n${current.slice(to)}`;
  await writeFile(readme, next);
  process.stdout.write(`wrote the table into ${readme}\n`);
}
