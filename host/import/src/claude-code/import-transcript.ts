import { stat } from 'node:fs/promises';
import type { Journal, JournalStore } from '@dsh/journal';
import {
  createOrAdopt,
  journalExists,
  modelOf,
  titleOf,
  unknownEvents,
} from '../import-journals.js';
import {
  importStatePath,
  loadImportState,
  saveImportState,
  type ImportState,
  type TargetState,
} from '../import-state.js';
import {
  importedSessionId,
  sidechainSessionId,
  subagentSessionId,
  transcriptName,
} from './import-session-ids.js';
import { readLines } from '../read-lines.js';
import {
  createTranscriptConverter,
  initialConverterState,
  type TimedPayload,
  type TranscriptConverter,
} from './transcript-converter.js';
import { stringOf } from '../json-fields.js';
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

interface Target {
  readonly key: string;
  readonly saved: TargetState;
  readonly converter: TranscriptConverter;
  buffer: TimedPayload[];
  /** Payload cases of events already in the journal that the state does not count (a crash after append). */
  skip: string[];
  cwd: string;
}

/**
 * Imports what is new in one transcript file: reads complete lines from the saved byte
 * offset in one streaming pass, converts them, appends the events in batches and saves
 * the state after each batch, so re-running never duplicates and a grown transcript is
 * continued. Interleaved sidechain lines go to child sessions.
 */
export async function importTranscript(
  store: JournalStore,
  file: TranscriptFile,
  options: ImportPassOptions,
): Promise<TranscriptImport> {
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
  const targets = new Map<string, Target>();
  const target = async (key: string): Promise<Target> => {
    let found = targets.get(key);
    if (found !== undefined) return found;
    const saved = (state.targets[key] ??= {
      id: '',
      parentId: '',
      length: 0,
      converter: initialConverterState(),
    });
    const skip = saved.id === '' ? [] : await unknownEvents(store, saved);
    found = {
      key,
      saved,
      converter: createTranscriptConverter(saved.converter),
      buffer: [],
      skip,
      cwd: '',
    };
    targets.set(key, found);
    return found;
  };
  const chains = structuredClone(state.sidechains);
  let events = 0;
  let malformed = 0;
  let pendingBytes = 0;
  let pendingEvents = 0;

  const ensureJournal = async (t: Target): Promise<Journal> => {
    if (t.saved.id !== '') return store.open(t.saved.id);
    if (t.key === 'main') {
      if (file.kind === 'main') t.saved.id = importedSessionId(transcriptName(file.path));
      else if (parentClaudeId !== undefined) {
        t.saved.id = subagentSessionId(parentClaudeId, file.path);
        const parent = importedSessionId(parentClaudeId);
        if (await journalExists(store, parent)) t.saved.parentId = parent;
        else
          options.onWarning?.(
            `${file.path}: parent session ${parent} is not imported; importing the sub-agent as a root session`,
          );
      } else t.saved.id = importedSessionId(transcriptName(file.path));
    } else {
      const main = await target('main');
      await ensureJournal(main);
      t.saved.id = sidechainSessionId(main.saved.id, Number(t.key.slice('side-'.length)));
      t.saved.parentId = main.saved.id;
    }
    const created = await createOrAdopt(store, {
      sessionId: t.saved.id,
      parentId: t.saved.parentId,
      cwd: t.cwd,
      title: titleOf(t.buffer.map((e) => e.payload)),
      model: modelOf(t.buffer.map((e) => e.payload)),
      ...firstTime(t.buffer),
    });
    t.skip = created.existing;
    // Records the id only: converter states and sidechain routing are saved at commit,
    // together with the offset they correspond to.
    await saveImportState(statePath, state);
    return created.journal;
  };

  const commit = async (offset: number, lines: number): Promise<void> => {
    for (const t of targets.values()) {
      if (t.buffer.length === 0) continue;
      const journal = await ensureJournal(t);
      const skipped = Math.min(t.skip.length, t.buffer.length);
      for (let i = 0; i < skipped; i += 1) {
        if (t.buffer[i]!.payload.case !== t.skip[i]) {
          throw new Error(
            `session ${t.saved.id} holds events this import did not write: delete ${t.saved.id}.jsonl and its import state to re-import`,
          );
        }
      }
      const fresh = t.buffer.slice(skipped);
      t.skip = t.skip.slice(skipped);
      t.buffer = [];
      if (fresh.length > 0) {
        await journal.append(
          fresh.map((e) => e.payload),
          { times: eventTimes(fresh, mtime) },
        );
      }
      t.saved.length = journal.length;
      events += fresh.length;
    }
    state.offset = offset;
    state.lines = lines;
    state.sidechains = structuredClone(chains);
    for (const t of targets.values()) t.saved.converter = t.converter.state();
    await saveImportState(statePath, state);
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
    const t = await target(routeOf(file, parsed.value, chains));
    if (t.cwd === '') t.cwd = stringOf(parsed.value.fields, 'cwd') ?? '';
    const out = t.converter.push(parsed.value);
    t.buffer.push(...out);
    pendingEvents += out.length;
    if (pendingEvents >= batchEvents || pendingBytes >= batchBytes) await commit(offset, lineNo);
  }
  for (const t of targets.values()) t.buffer.push(...t.converter.flush(options.final));
  if (offset !== state.offset || [...targets.values()].some((t) => t.buffer.length > 0)) {
    await commit(offset, lineNo);
  }
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

/**
 * The journal time of each event: its transcript time; an event before the transcript
 * showed any time takes the next event's, or the file's mtime when none follows.
 */
function eventTimes(events: readonly TimedPayload[], fallback: Date): Date[] {
  const times: Date[] = [];
  let next = fallback.getTime();
  for (let i = events.length - 1; i >= 0; i -= 1) {
    next = events[i]!.time ?? next;
    times.push(new Date(next));
  }
  return times.reverse();
}

/** The creation time of an imported session: the first timestamp its events carry. */
function firstTime(buffer: readonly { time: number | undefined }[]): { createdAt?: Date } {
  const time = buffer.find((event) => event.time !== undefined)?.time;
  return time === undefined ? {} : { createdAt: new Date(time) };
}
