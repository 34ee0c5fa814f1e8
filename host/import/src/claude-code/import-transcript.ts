import { stat } from 'node:fs/promises';
import type { Journal } from '@dsh/journal';
import type { FileJournalStore } from '@dsh/journal-file';
import { textBlock } from '../content-blocks.js';
import { importPayloads as p } from '../import-payloads.js';
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
import { stringOf } from '../json-fields.js';
import { readLines } from '../read-lines.js';
import { sniffTranscript, wrongFormat } from '../sniff-transcript.js';
import {
  importedSessionId,
  sidechainSessionId,
  subagentSessionId,
  transcriptName,
} from './import-session-ids.js';
import { contextEnvelopes } from './line-meaning.js';
import { emptyRoutes, internalTarget, routeLine } from './sidechain-routes.js';
import {
  describeCall,
  knownCalls,
  mainLinks,
  parentCallOf,
  parentCallText,
  type ParentCall,
} from './subagent-links.js';
import {
  createTranscriptConverter,
  initialConverterState,
  type ConverterState,
  type FlushMode,
  type TimedPayload,
  type TranscriptConverter,
} from './transcript-converter.js';
import { parseTranscriptLine, type TranscriptLine } from './transcript-line.js';
import { eventTimes } from '../event-times.js';

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

interface Target {
  readonly key: string;
  readonly saved: TargetState<ConverterState>;
  readonly converter: TranscriptConverter;
  buffer: TimedPayload[];
  /** Payload cases of events already in the journal that the state does not count (a crash after append). */
  skip: string[];
  cwd: string;
  /**
   * A sidechain's Task call (by its first prompt), found when the chain's first line is
   * read: by the time its journal is written the call may have its result and be closed.
   */
  call?: { readonly callId: string | undefined; readonly description: string | undefined };
}

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
  const statePath = importStatePath(store.dataDir, file.path);
  const loaded = await loadImportState<ConverterState>(statePath, file.path);
  if (typeof loaded === 'string') throw new Error(loaded);
  if (loaded === undefined) {
    const sniffed = await sniffTranscript(file.path);
    if (sniffed.kind === 'empty') return { sessions: [], events: 0, malformed: 0, empty: true };
    if (sniffed.kind === 'unknown') return refusal(sniffed.reason);
    if (sniffed.format !== 'claude-code')
      return refusal(wrongFormat(sniffed.format, 'claude-code'));
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
  const chains = structuredClone(state.sidechains);
  const mainSessionId = (): string =>
    state.targets.main?.id || importedSessionId(transcriptName(file.path));
  const links = file.kind === 'main' ? mainLinks(file, mainSessionId, () => chains) : undefined;
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
      converter: createTranscriptConverter(saved.converter, key === 'main' ? links : undefined),
      buffer: [],
      skip,
      cwd: '',
    };
    targets.set(key, found);
    return found;
  };
  let events = 0;
  let malformed = 0;
  let pendingBytes = 0;
  let pendingEvents = 0;

  /** The parent call a new child session shows first, as far as it is known. */
  const parentOf = async (t: Target): Promise<ParentCall | undefined> => {
    if (t.key === 'main') {
      if (file.kind !== 'subagent' || t.saved.parentId === '' || parentClaudeId === undefined)
        return undefined;
      return parentCallOf(store.dataDir, file, parentClaudeId);
    }
    return {
      sessionId: t.saved.parentId,
      callId: t.call?.callId,
      description: t.call?.description,
    };
  };

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
    const parent = await parentOf(t);
    if (parent !== undefined) {
      const meta = {
        sessionId: parent.sessionId,
        ...(parent.callId === undefined ? {} : { callId: parent.callId }),
      };
      const row = p.contextMessage(
        [textBlock(parentCallText(parent))],
        contextEnvelopes.subagent,
        JSON.stringify(meta),
      );
      t.buffer.unshift({ payload: row, time: t.buffer.find((e) => e.time !== undefined)?.time });
    }
    const payloads = t.buffer.map((e) => e.payload);
    const converted = t.converter.state();
    const created = await createOrAdopt(store, {
      sessionId: t.saved.id,
      parentId: t.saved.parentId,
      cwd: t.cwd,
      title: titleOf(payloads, 'Claude Code', converted.title, converted.summary),
      model: modelOf(payloads),
      origin: 'claude-code',
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
    const key = file.kind === 'subagent' ? 'main' : routeLine(parsed.value, chains);
    if (key === internalTarget) continue;
    const fresh = !targets.has(key) && state.targets[key] === undefined;
    const t = await target(key);
    if (fresh && key !== 'main') {
      const main = state.targets.main === undefined ? undefined : await target('main');
      t.call = sidechainCall(main, parsed.value);
    }
    if (t.cwd === '') t.cwd = stringOf(parsed.value.fields, 'cwd') ?? '';
    const out = t.converter.push(parsed.value);
    t.buffer.push(...out);
    pendingEvents += out.length;
    if (pendingEvents >= batchEvents || pendingBytes >= batchBytes) await commit(offset, lineNo);
  }
  if (options.flush !== 'pass') {
    for (const key of Object.keys(state.targets)) await target(key);
  }
  for (const t of targets.values()) t.buffer.push(...t.converter.flush(options.flush));
  if (offset !== state.offset || [...targets.values()].some((t) => t.buffer.length > 0)) {
    await commit(offset, lineNo);
  }
  const sessions = Object.values(state.targets)
    .map((t) => t.id)
    .filter((id) => id !== '');
  return { sessions, events, malformed };
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

/** The creation time of an imported session: the first timestamp its events carry. */
function firstTime(buffer: readonly { time: number | undefined }[]): { createdAt?: Date } {
  const time = buffer.find((event) => event.time !== undefined)?.time;
  return time === undefined ? {} : { createdAt: new Date(time) };
}
