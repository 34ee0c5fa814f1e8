import { stat } from 'node:fs/promises';
import type { FileJournalStore } from '@dsh/journal-file';
import { journalExists } from './import-journals.js';
import { importStatePath, loadImportState, type ImportState } from './import-state.js';
import { importedSessionId } from './import-session-ids.js';
import { createImportTargets } from './import-targets.js';
import { readLines } from './read-lines.js';
import { parseTranscriptLine, stringOf, type TranscriptLine } from './transcript-line.js';

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
  /** A one-time import: a turn whose last message called no tools is ended at EOF. */
  readonly final: boolean;
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
}

const batchEvents = 1000;
const batchBytes = 4 << 20;

/** The saved state of a transcript's import, or a fresh one; throws when it cannot continue. */
async function passState(
  store: FileJournalStore,
  file: TranscriptFile,
): Promise<{ state: ImportState; statePath: string; mtime: Date }> {
  const statePath = importStatePath(store.dataDir, file.path);
  const loaded = await loadImportState(statePath, file.path);
  if (typeof loaded === 'string') throw new Error(loaded);
  const state: ImportState = loaded ?? {
    version: 1,
    source: file.path,
    offset: 0,
    lines: 0,
    targets: {},
    sidechains: { byUuid: {}, count: 0, last: '' },
  };
  const { size, mtime } = await stat(file.path);
  if (size < state.offset) {
    throw new Error(
      `${file.path} shrank below the ${state.offset} bytes already imported: it was rewritten; delete its sessions and ${statePath} to re-import`,
    );
  }
  return { state, statePath, mtime };
}

/**
 * Imports what is new in one transcript file: reads complete lines from the saved byte
 * offset in one streaming pass, converts them, appends the events in batches and saves
 * the state after each batch, so re-running never duplicates and a grown transcript is
 * continued. Interleaved sidechain lines go to child sessions.
 */
export async function importTranscript(
  store: FileJournalStore,
  file: TranscriptFile,
  options: ImportPassOptions,
): Promise<TranscriptImport> {
  const { state, statePath, mtime } = await passState(store, file);
  let parentClaudeId = file.parentClaudeId;
  if (
    file.kind === 'subagent' &&
    parentClaudeId !== undefined &&
    (state.targets.main?.id ?? '') === ''
  ) {
    const parent = importedSessionId(parentClaudeId);
    if (!(await journalExists(store, parent)))
      return { sessions: [], events: 0, malformed: 0, waitingFor: parent };
  }
  const targets = createImportTargets({
    store,
    file,
    state,
    statePath,
    mtime,
    parentClaudeId: () => parentClaudeId,
    onWarning: options.onWarning,
  });
  const chains = structuredClone(state.sidechains);
  let events = 0;
  let malformed = 0;
  let pendingBytes = 0;
  let pendingEvents = 0;
  const commit = async (offset: number, lines: number): Promise<void> => {
    events += await targets.commit(offset, lines, chains);
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
    if (file.kind === 'subagent' && parentClaudeId === undefined) {
      const sessionId = stringOf(parsed.value.fields, 'sessionId');
      if (sessionId !== undefined && sessionId !== '') parentClaudeId = sessionId;
    }
    const t = await targets.target(routeOf(file, parsed.value, chains));
    if (t.cwd === '') t.cwd = stringOf(parsed.value.fields, 'cwd') ?? '';
    const out = t.converter.push(parsed.value);
    t.buffer.push(...out);
    pendingEvents += out.length;
    if (pendingEvents >= batchEvents || pendingBytes >= batchBytes) await commit(offset, lineNo);
  }
  targets.flush(options.final);
  if (offset !== state.offset || targets.buffered()) await commit(offset, lineNo);
  const sessions = Object.values(state.targets)
    .map((t) => t.id)
    .filter((id) => id !== '');
  return { sessions, events, malformed };
}

/** Main-file sidechain lines go to `side-<k>` targets; everything else to `main`. */
function routeOf(
  file: TranscriptFile,
  line: TranscriptLine,
  chains: ImportState['sidechains'],
): string {
  const { fields } = line;
  if (file.kind === 'subagent' || fields.isSidechain !== true) return 'main';
  const parent = stringOf(fields, 'parentUuid');
  let key = parent !== undefined ? chains.byUuid[parent] : undefined;
  if (key === undefined && (parent === undefined || chains.last === '')) {
    chains.count += 1;
    key = `side-${chains.count}`;
  }
  key ??= chains.last;
  chains.last = key;
  const uuid = stringOf(fields, 'uuid');
  if (uuid !== undefined) {
    chains.byUuid[uuid] = key;
    const uuids = Object.keys(chains.byUuid);
    if (uuids.length > 256) delete chains.byUuid[uuids[0]!];
  }
  return key;
}
