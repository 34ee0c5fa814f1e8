import { stat } from 'node:fs/promises';
import type { Journal } from '@dsh/journal';
import type { FileJournalStore } from '@dsh/journal-file';
import { eventPayloads as p } from '@dsh/journal';
import { textBlock } from '../content-blocks.js';
import {
  createOrAdopt,
  journalExists,
  modelOf,
  titleOf,
  unknownEvents,
} from '../import-journals.js';
import {
  codexStateDirName,
  importStatePath,
  loadImportState,
  saveImportState,
  type ImportState,
} from '../import-state.js';
import { readLines } from '../read-lines.js';
import { sniffTranscript, wrongFormat } from '../sniff-transcript.js';
import type { ImportPassOptions, TranscriptImport } from '../claude-code/import-transcript.js';
import type { TimedPayload } from '../claude-code/transcript-converter.js';
import { emptyRoutes } from '../claude-code/sidechain-routes.js';
import {
  codexEnvelopes,
  codexSource,
  createRolloutConverter,
  initialRolloutState,
  type RolloutState,
} from './rollout-converter.js';
import { forkText, spawnCallOf, spawnOrigin, spawnText } from './codex-subagents.js';
import { parseRolloutLine } from './rollout-line.js';
import { createForkScan, type ForkEnd } from './forked-history.js';
import { eventTimes } from '../event-times.js';
import { codexSessionId } from './codex-session-id.js';

const batchEvents = 1000;
const batchBytes = 4 << 20;

/** Options of one pass over a rollout. */
export interface RolloutPassOptions extends ImportPassOptions {
  /**
   * When set, a new sub-agent rollout whose parent session is not imported yet is left
   * for later (`waitingFor`); otherwise it is imported as a root session, with a warning.
   */
  readonly waitForParent?: boolean;
}

/**
 * Imports what is new in one Codex rollout: complete lines from the saved byte offset,
 * converted and appended in batches with the state saved after each, so re-running never
 * duplicates and a grown rollout is continued. A file that is not a rollout is refused.
 * A sub-agent's rollout becomes a child of the session that spawned it, starting with a
 * context row that links the parent's call.
 */
export async function importRollout(
  store: FileJournalStore,
  path: string,
  options: RolloutPassOptions,
): Promise<TranscriptImport> {
  const statePath = importStatePath(store.dataDir, path, codexStateDirName);
  const loaded = await loadImportState<RolloutState>(statePath, path);
  if (typeof loaded === 'string') throw new Error(loaded);
  if (loaded === undefined) {
    const sniffed = await sniffTranscript(path);
    if (sniffed.kind === 'empty') return { sessions: [], events: 0, malformed: 0, empty: true };
    if (sniffed.kind === 'unknown') return refused(sniffed.reason);
    if (sniffed.format !== 'codex') return refused(wrongFormat(sniffed.format, 'codex'));
    if (options.waitForParent === true) {
      const parent = await missingParent(store, path);
      if (parent !== undefined)
        return { sessions: [], events: 0, malformed: 0, waitingFor: parent };
    }
  }
  const state: ImportState<RolloutState> = loaded ?? {
    version: 1,
    source: path,
    offset: 0,
    lines: 0,
    targets: {},
    sidechains: emptyRoutes(),
  };
  const { size, mtime } = await stat(path);
  if (size < state.offset) {
    throw new Error(
      `${path} shrank below the ${state.offset} bytes already imported: it was rewritten; delete its session and ${statePath} to re-import`,
    );
  }
  const saved = (state.targets.main ??= {
    id: '',
    parentId: '',
    length: 0,
    converter: initialRolloutState(),
  });
  let skip = saved.id === '' ? [] : await unknownEvents(store, saved);
  const converter = createRolloutConverter(saved.converter);
  let buffer: TimedPayload[] = [];
  let journal: Journal | undefined;
  let events = 0;
  let malformed = 0;
  let pendingBytes = 0;

  const ensureJournal = async (): Promise<Journal> => {
    if (journal !== undefined) return journal;
    if (saved.id !== '') return (journal = await store.open(saved.id));
    const converted = converter.state();
    saved.id = codexSessionId(converted.sessionId, path);
    const first = buffer.find((e) => e.time !== undefined)?.time;
    const origin = converted.origin;
    if (origin !== undefined) {
      const parent = codexSessionId(origin.parentThreadId);
      if (await journalExists(store, parent)) {
        saved.parentId = parent;
        const fork = typeof converted.fork === 'object' ? converted.fork : undefined;
        const found = await spawnCallOf(store, parent, saved.id);
        const call = { ...found, callId: found.callId ?? fork?.callId };
        const meta = {
          sessionId: parent,
          ...(call.callId === undefined ? {} : { callId: call.callId }),
          ...(fork === undefined ? {} : { forkedLines: fork.lines }),
        };
        const text = `${spawnText(origin, parent, call)}${fork === undefined ? '' : forkText(fork.lines)}`;
        const row = p.contextMessage(
          [textBlock(text)],
          codexSource,
          codexEnvelopes.subagent,
          JSON.stringify(meta),
        );
        buffer.unshift({ payload: row, time: first });
      } else {
        options.onWarning?.(
          `${path}: parent session ${parent} is not imported; importing the sub-agent as a root session`,
        );
      }
    }
    const payloads = buffer.map((e) => e.payload);
    const agent =
      origin === undefined
        ? 'Codex'
        : `Codex sub-agent${origin.nickname === '' ? '' : ` ${origin.nickname}`}`;
    const created = await createOrAdopt(store, {
      sessionId: saved.id,
      parentId: saved.parentId,
      cwd: converted.cwd,
      title: titleOf(payloads, agent, converted.title),
      model: modelOf(payloads) || converted.model,
      origin: 'codex',
      ...(first === undefined ? {} : { createdAt: new Date(first) }),
    });
    skip = created.existing;
    await saveImportState(statePath, state);
    return (journal = created.journal);
  };

  const commit = async (offset: number, lines: number): Promise<void> => {
    if (buffer.length > 0) {
      const target = await ensureJournal();
      const skipped = Math.min(skip.length, buffer.length);
      for (let i = 0; i < skipped; i += 1) {
        if (buffer[i]!.payload.case !== skip[i]) {
          throw new Error(
            `session ${saved.id} holds events this import did not write: delete ${saved.id}.jsonl and its import state to re-import`,
          );
        }
      }
      const fresh = buffer.slice(skipped);
      skip = skip.slice(skipped);
      buffer = [];
      if (fresh.length > 0) {
        await target.append(
          fresh.map((e) => e.payload),
          { times: eventTimes(fresh, mtime) },
        );
      }
      saved.length = target.length;
      events += fresh.length;
    }
    state.offset = offset;
    state.lines = lines;
    saved.converter = converter.state();
    await saveImportState(statePath, state);
    pendingBytes = 0;
    options.onProgress?.(offset);
  };

  let offset = state.offset;
  let lineNo = state.lines;
  let forkOpen = saved.converter.forked === true && saved.converter.fork === undefined;
  let waiting = false;
  reading: for (;;) {
    for await (const line of readLines(path, offset)) {
      if (forkOpen) {
        // A forked sub-agent: find where the copy of its parent's history ends, then skip it.
        forkOpen = false;
        const end = await findForkEnd(path, offset);
        if (end === undefined && options.flush !== 'final') {
          waiting = true;
          break reading;
        }
        converter.settleFork(end?.end);
        if (end === undefined) {
          options.onWarning?.(
            `${path}: the copy of the parent's history has no end Codex marks; showing all of it`,
          );
        } else {
          pendingBytes += end.offset - offset;
          offset = end.offset;
          lineNo += end.end.lines;
          continue reading;
        }
      }
      lineNo += 1;
      pendingBytes += line.end - offset;
      offset = line.end;
      if (line.text.trim() === '') continue;
      const parsed = parseRolloutLine(line.text);
      if (!parsed.ok) {
        malformed += 1;
        options.onWarning?.(`${path}:${lineNo}: ${parsed.error}; line skipped`);
        continue;
      }
      buffer.push(...converter.push(parsed.value));
      if (parsed.value.type === 'session_meta') {
        const converted = converter.state();
        forkOpen = converted.forked === true && converted.fork === undefined;
      }
      if (buffer.length >= batchEvents || pendingBytes >= batchBytes) await commit(offset, lineNo);
    }
    break;
  }
  if (waiting) {
    if (offset !== state.offset || buffer.length > 0) await commit(offset, lineNo);
    return { sessions: saved.id === '' ? [] : [saved.id], events, malformed };
  }
  buffer.push(...converter.flush(options.flush));
  if (offset !== state.offset || buffer.length > 0) await commit(offset, lineNo);
  return { sessions: saved.id === '' ? [] : [saved.id], events, malformed };
}

/**
 * Where the copy of the parent's history that starts at byte `from` ends: the byte offset
 * of the child's own first line and the copy's extent; `undefined` when the lines so far
 * do not show it.
 */
async function findForkEnd(
  path: string,
  from: number,
): Promise<{ offset: number; end: ForkEnd } | undefined> {
  const scan = createForkScan();
  const ends = [from];
  for await (const line of readLines(path, from)) {
    ends.push(line.end);
    const parsed = parseRolloutLine(line.text);
    const end = parsed.ok
      ? scan.push(parsed.value)
      : scan.push({ type: '', payload: {}, time: undefined });
    if (end !== undefined) return { offset: ends[end.lines]!, end };
  }
  return undefined;
}

/** The session a sub-agent rollout's first line names as its parent, when it is not imported. */
async function missingParent(store: FileJournalStore, path: string): Promise<string | undefined> {
  for await (const line of readLines(path, 0)) {
    const parsed = parseRolloutLine(line.text);
    if (!parsed.ok || parsed.value.type !== 'session_meta') return undefined;
    const origin = spawnOrigin(parsed.value.payload);
    if (origin === undefined) return undefined;
    const parent = codexSessionId(origin.parentThreadId);
    return (await journalExists(store, parent)) ? undefined : parent;
  }
  return undefined;
}

function refused(reason: string): TranscriptImport {
  return { sessions: [], events: 0, malformed: 0, refused: reason };
}
