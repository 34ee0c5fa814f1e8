import { stat } from 'node:fs/promises';
import type { FileJournalStore } from '@dsh/journal-file';
import { journalExists } from '../import-journals.js';
import { importStatePath, loadImportState, type ImportState } from '../import-state.js';
import { stringOf } from '../json-fields.js';
import { readLines } from '../read-lines.js';
import { sniffTranscript, wrongFormat } from '../sniff-transcript.js';
import { importedSessionId, transcriptName } from './import-session-ids.js';
import { ImportTargets, type Target } from './import-targets.js';
import {
  emptyRoutes,
  internalTarget,
  routeLine,
  type SidechainRoutes,
} from './sidechain-routes.js';
import { describeCall, knownCalls, mainLinks } from './subagent-links.js';
import type { ConverterState, FlushMode } from './transcript-converter.js';
import { parseTranscriptLine, type TranscriptLine } from './transcript-line.js';

/** A transcript file to import. */
export interface TranscriptFile {
  /** Absolute path. */
  readonly path: string;
  /** `main`: `<session-id>.jsonl`; `subagent`: a sub-agent transcript, a child session. */
  readonly kind: 'main' | 'subagent';
  /** For a sub-agent: the Claude Code session that ran it, when the layout names it. */
  readonly parentClaudeId?: string;
}

/** Options of one import pass. */
export interface ImportPassOptions {
  /**
   * How the pass ends (`FlushMode`): `final` for a one-time import (the last message is
   * written and a finished turn ended), `pass` or `idle` while watching.
   */
  readonly flush: FlushMode;
  /** Malformed lines and other problems, as `file:line: reason`. */
  readonly onWarning?: (message: string) => void;
  /** Bytes of the file consumed so far, after each batch. */
  readonly onProgress?: (offset: number) => void;
}

/** What one pass did. */
export interface TranscriptImport {
  /** Ids of the sessions this transcript feeds. */
  readonly sessions: string[];
  /** Events appended in this pass. */
  readonly events: number;
  /** Malformed lines skipped in this pass. */
  readonly malformed: number;
  /** Set when a sub-agent transcript waits for its parent session to be imported. */
  readonly waitingFor?: string;
  /** Set when the file is not a Claude Code transcript (nothing was imported): why. */
  readonly refused?: string;
  /** True when the file has no complete line yet. */
  readonly empty?: boolean;
}

const batchEvents = 1000;
const batchBytes = 4 << 20;

/**
 * Imports what is new in one transcript file: reads complete lines from the saved byte
 * offset in one streaming pass, converts them, appends the events in batches and saves
 * the state after each batch, so re-running never duplicates and a grown transcript is
 * continued. Interleaved sidechain lines go to child sessions (Claude Code's own warm-up
 * chains are left out). A file that is not a Claude Code transcript is refused.
 */
export async function importTranscript(
  store: FileJournalStore,
  file: TranscriptFile,
  options: ImportPassOptions,
): Promise<TranscriptImport> {
  const started = await startPass(store, file);
  if ('result' in started) return started.result;
  const { state, statePath, mtime } = started;
  const chains = structuredClone(state.sidechains);
  const mainSessionId = (): string =>
    state.targets.main?.id || importedSessionId(transcriptName(file.path));
  const links = file.kind === 'main' ? mainLinks(file, mainSessionId, () => chains) : undefined;
  const targets = new ImportTargets({
    store,
    file,
    state,
    statePath,
    chains,
    links,
    mtime,
    onWarning: options.onWarning,
  });
  let malformed = 0;
  let pendingBytes = 0;
  let pendingEvents = 0;
  const commit = async (offset: number, lines: number): Promise<void> => {
    await targets.commit(offset, lines);
    pendingBytes = 0;
    pendingEvents = 0;
    options.onProgress?.(offset);
  };

  let offset = state.offset;
  let lineNo = state.lines;
  for await (const line of readLines(file.path, state.offset)) {
    lineNo += 1;
    pendingBytes += line.end - offset;
    offset = line.end;
    if (line.text.trim() === '') continue;
    const parsed = parseTranscriptLine(line.text);
    if (!parsed.ok) {
      malformed += 1;
      options.onWarning?.(`${file.path}:${lineNo}: ${parsed.error}; line skipped`);
      continue;
    }
    const out = await convertLine(targets, file, parsed.value, chains);
    pendingEvents += out;
    if (pendingEvents >= batchEvents || pendingBytes >= batchBytes) await commit(offset, lineNo);
  }
  if (options.flush !== 'pass') {
    for (const key of Object.keys(state.targets)) await targets.target(key);
  }
  for (const t of targets.values()) t.buffer.push(...t.converter.flush(options.flush));
  if (offset !== state.offset || [...targets.values()].some((t) => t.buffer.length > 0)) {
    await commit(offset, lineNo);
  }
  const sessions = Object.values(state.targets)
    .map((t) => t.id)
    .filter((id) => id !== '');
  return { sessions, events: targets.events, malformed };
}

/**
 * The import state a pass starts from (a new one for a file never imported, which must
 * sniff as a Claude Code transcript), or the pass's whole result when it cannot start:
 * an empty or foreign file, or a sub-agent whose parent session is not imported yet.
 */
async function startPass(
  store: FileJournalStore,
  file: TranscriptFile,
): Promise<
  | { state: ImportState<ConverterState>; statePath: string; mtime: Date }
  | { result: TranscriptImport }
> {
  const statePath = importStatePath(store.dataDir, file.path);
  const loaded = await loadImportState<ConverterState>(statePath, file.path);
  if (typeof loaded === 'string') throw new Error(loaded);
  if (loaded === undefined) {
    const sniffed = await sniffTranscript(file.path);
    if (sniffed.kind === 'empty') {
      return { result: { sessions: [], events: 0, malformed: 0, empty: true } };
    }
    if (sniffed.kind === 'unknown') return { result: refusal(sniffed.reason) };
    if (sniffed.format !== 'claude-code')
      return { result: refusal(wrongFormat(sniffed.format, 'claude-code')) };
  }
  const state: ImportState<ConverterState> = loaded ?? {
    version: 1,
    source: file.path,
    offset: 0,
    lines: 0,
    targets: {},
    sidechains: emptyRoutes(),
  };
  const { size, mtime } = await stat(file.path);
  if (size < state.offset) {
    throw new Error(
      `${file.path} shrank below the ${state.offset} bytes already imported: it was rewritten; delete its sessions and ${statePath} to re-import`,
    );
  }
  const { parentClaudeId } = file;
  if (
    file.kind === 'subagent' &&
    parentClaudeId !== undefined &&
    (state.targets.main?.id ?? '') === ''
  ) {
    const parent = importedSessionId(parentClaudeId);
    if (!(await journalExists(store, parent))) {
      return { result: { sessions: [], events: 0, malformed: 0, waitingFor: parent } };
    }
  }
  return { state, statePath, mtime };
}

/** Routes one line to its target and converts it there; the number of events it gave. */
async function convertLine(
  targets: ImportTargets,
  file: TranscriptFile,
  line: TranscriptLine,
  chains: SidechainRoutes,
): Promise<number> {
  if (file.kind === 'subagent' && targets.parentClaudeId === undefined) {
    const sessionId = stringOf(line.fields, 'sessionId');
    if (sessionId !== undefined && sessionId !== '') targets.parentClaudeId = sessionId;
  }
  const key = file.kind === 'subagent' ? 'main' : routeLine(line, chains);
  if (key === internalTarget) return 0;
  const fresh = !targets.known(key);
  const t = await targets.target(key);
  if (fresh && key !== 'main') {
    const main = targets.known('main') ? await targets.target('main') : undefined;
    t.call = sidechainCall(main, line);
  }
  if (t.cwd === '') t.cwd = stringOf(line.fields, 'cwd') ?? '';
  const out = t.converter.push(line);
  t.buffer.push(...out);
  return out.length;
}

function refusal(reason: string): TranscriptImport {
  return { sessions: [], events: 0, malformed: 0, refused: reason };
}

/** The text of a sidechain's first (user) line. */
function promptOf(line: TranscriptLine): string | undefined {
  const message = line.fields.message;
  if (line.type !== 'user' || typeof message !== 'object' || message === null) return undefined;
  const content = (message as Record<string, unknown>).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((b: unknown) =>
      typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text'
        ? String((b as { text?: unknown }).text ?? '')
        : '',
    )
    .join('\n');
}

/** The Task call of the main transcript that a sidechain's first line answers. */
function sidechainCall(main: Target | undefined, first: TranscriptLine): Target['call'] {
  const prompt = promptOf(first);
  const state = main?.converter.state();
  if (state === undefined || prompt === undefined) return undefined;
  const callId = taskCallOf(state, prompt);
  return { callId, description: describeCall(state, callId) };
}

/** The open Task call of the main transcript whose prompt is `prompt`. */
function taskCallOf(main: ConverterState, prompt: string): string | undefined {
  for (const [callId, call] of knownCalls(main)) {
    if (call.name !== 'Task' && call.name !== 'Agent') continue;
    try {
      const args = JSON.parse(call.args) as Record<string, unknown>;
      if (typeof args.prompt === 'string' && args.prompt.trim() === prompt.trim()) return callId;
    } catch {
      // Malformed arguments name no prompt.
    }
  }
  return undefined;
}
