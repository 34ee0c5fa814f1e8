import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConversation, deriveCard, type Card, type ToolCallBlock } from '@dsh/card-models';
import type { SessionEvent } from '@dsh/gen/events';
import { eventType, type Journal } from '@dsh/journal';

/** The fixture projects dir (Claude Code layout). */
export const fixtureProjects = fileURLToPath(new URL('./transcripts/projects', import.meta.url));
/** The Claude Code session id of the main fixture transcript. */
export const fixtureSessionId = '0b6f3c1e-1111-4a5b-9c1d-000000000001';
/** The main fixture transcript, relative to a projects dir. */
export const fixtureMain = join('-work-demo', `${fixtureSessionId}.jsonl`);

/** A temporary dir with a copy of the fixture projects and an empty data dir. */
export interface ImportSandbox {
  readonly projects: string;
  readonly dataDir: string;
  readonly mainPath: string;
  close(): Promise<void>;
}

/** Copies the fixtures into a fresh temporary dir; `withLines` cuts the main transcript. */
export async function importSandbox(withLines?: number): Promise<ImportSandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-import-test-'));
  const projects = join(dir, 'projects');
  await cp(fixtureProjects, projects, { recursive: true });
  const mainPath = join(projects, fixtureMain);
  if (withLines !== undefined)
    await writeFile(mainPath, (await transcriptLines(withLines)).join(''));
  return {
    projects,
    dataDir: join(dir, 'sessions'),
    mainPath,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Lines of the main fixture transcript (each with its newline) from `from` to `to`. */
export async function transcriptLines(to?: number, from = 0): Promise<string[]> {
  const text = await readFile(join(fixtureProjects, fixtureMain), 'utf8');
  return text.split(/(?<=\n)/).slice(from, to);
}

/** Every tool call block of the events, in call order, via card-models' conversation fold. */
export function toolBlocks(events: readonly SessionEvent[]): ToolCallBlock[] {
  const snapshot = createConversation().apply({ kind: 'replace', events });
  const blocks: ToolCallBlock[] = [];
  for (const node of snapshot.nodes) {
    if (node.kind === 'tool-result') blocks.push(node.tool);
    if (node.kind !== 'assistant') continue;
    for (const block of node.blocks) if (block.kind === 'tool-call') blocks.push(block.tool);
  }
  return blocks;
}

/** The card of every tool call, by call id. */
export function cardsByCallId(events: readonly SessionEvent[]): Map<string, Card> {
  const facts = { cwd: '/work/demo', home: '/home/dev' };
  return new Map(toolBlocks(events).map((block) => [block.callId, deriveCard(block, facts)]));
}

/** All events of a journal. */
export function allEvents(journal: Journal): Promise<SessionEvent[]> {
  return journal.read(0, journal.length);
}

/** One line per event, `seq type detail`, without times: for snapshots and comparisons. */
export function rendition(events: readonly SessionEvent[]): string[] {
  return events.map((event) => {
    const { payload } = event;
    const detail =
      payload.case === 'toolCall'
        ? `${payload.value.callId} ${payload.value.name} ${payload.value.arguments}`
        : payload.case === 'toolResult'
          ? `${payload.value.callId}${payload.value.isError ? ` error:${payload.value.error?.code}` : ''} meta:${payload.value.metaJson === '' ? '-' : payload.value.metaJson.length}`
          : payload.case === 'turnStart' || payload.case === 'turnEnd'
            ? `turn ${payload.value.turn}${payload.case === 'turnEnd' ? ` ${payload.value.reason}` : ''}`
            : payload.case === 'assistantMessage'
              ? `turn ${payload.value.turn} step ${payload.value.step} blocks ${payload.value.content.map((b) => b.block.case).join(',')}`
              : '';
    return `${event.seq} ${eventType(event)} ${detail}`.trimEnd();
  });
}

/**
 * The real transcripts every developer and CI have beside the repository
 * (`../shared/transcripts`), or `undefined` when the folder is missing.
 */
export const sharedTranscripts: string | undefined = (() => {
  const dir = fileURLToPath(new URL('../../../../shared/transcripts', import.meta.url));
  return existsSync(dir) ? dir : undefined;
})();

/** The name of a suite that needs the shared transcripts, saying why it is skipped. */
export function sharedSuiteName(name: string): string {
  return sharedTranscripts === undefined
    ? `${name} (skipped: ../shared/transcripts is missing; it holds the real transcripts these tests read)`
    : name;
}

/**
 * A new temp dir whose Codex sessions dir (`codex/` + `day`, as `YYYY/MM/DD`) holds
 * `files` (name -> rollout lines, one JSON line each).
 */
export async function writeRollouts(
  files: Record<string, readonly object[]>,
  day: string,
): Promise<{ dir: string; root: string; sessionsDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-codex-'));
  const sessionsDir = join(dir, 'codex', ...day.split('/'));
  await mkdir(sessionsDir, { recursive: true });
  for (const [name, lines] of Object.entries(files)) {
    await writeFile(join(sessionsDir, name), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  }
  return { dir, root: join(dir, 'codex'), sessionsDir };
}
