import type { Journal } from '@dsh/journal';
import type { FileJournalStore } from '@dsh/journal-file';
import {
  createOrAdopt,
  journalExists,
  modelOf,
  titleOf,
  unknownEvents,
} from './import-journals.js';
import { saveImportState, type ImportState, type TargetState } from './import-state.js';
import {
  importedSessionId,
  sidechainSessionId,
  subagentSessionId,
  transcriptName,
} from './import-session-ids.js';
import type { TranscriptFile } from './import-transcript.js';
import {
  createTranscriptConverter,
  initialConverterState,
  type TimedPayload,
  type TranscriptConverter,
} from './transcript-converter.js';

/** One session a transcript feeds (`main`, or a sidechain `side-<k>`) during a pass. */
export interface ImportTarget {
  readonly key: string;
  readonly saved: TargetState;
  readonly converter: TranscriptConverter;
  /** Converted events not yet appended. */
  buffer: TimedPayload[];
  /** Payload cases of events already in the journal that the state does not count (a crash after append). */
  skip: string[];
  cwd: string;
}

/** What the targets of one pass work with. */
export interface ImportTargetsContext {
  readonly store: FileJournalStore;
  readonly file: TranscriptFile;
  /** The pass's import state, saved at `statePath` with each commit. */
  readonly state: ImportState;
  readonly statePath: string;
  /** The transcript's mtime: the time of events before the transcript shows any. */
  readonly mtime: Date;
  /** The Claude Code session that ran a sub-agent, once the layout or a line names it. */
  parentClaudeId(): string | undefined;
  readonly onWarning?: (message: string) => void;
}

/** The sessions one pass feeds: created on their first commit, appended in batches. */
export interface ImportTargets {
  /** The target for `key`, set up from the saved state on first use. */
  target(key: string): Promise<ImportTarget>;
  /**
   * Appends every buffered event (skipping those a crash left in the journal), then saves
   * the state at `offset`/`lines` with `sidechains`; resolves with the events appended.
   */
  commit(offset: number, lines: number, sidechains: ImportState['sidechains']): Promise<number>;
  /** Ends what the converters hold back; `final` ends a turn left open at EOF. */
  flush(final: boolean): void;
  /** True when some target holds events not yet appended. */
  buffered(): boolean;
}

/** Creates the targets of one import pass over `context.state`. */
export function createImportTargets(context: ImportTargetsContext): ImportTargets {
  const { store, file, state, statePath } = context;
  const targets = new Map<string, ImportTarget>();

  async function target(key: string): Promise<ImportTarget> {
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
  }

  /** Picks the session id of a target and its parent, once. */
  async function assignId(t: ImportTarget): Promise<void> {
    const parentClaudeId = context.parentClaudeId();
    if (t.key !== 'main') {
      const main = await target('main');
      await ensureJournal(main);
      t.saved.id = sidechainSessionId(main.saved.id, Number(t.key.slice('side-'.length)));
      t.saved.parentId = main.saved.id;
    } else if (file.kind === 'subagent' && parentClaudeId !== undefined) {
      t.saved.id = subagentSessionId(parentClaudeId, file.path);
      const parent = importedSessionId(parentClaudeId);
      if (await journalExists(store, parent)) t.saved.parentId = parent;
      else
        context.onWarning?.(
          `${file.path}: parent session ${parent} is not imported; importing the sub-agent as a root session`,
        );
    } else t.saved.id = importedSessionId(transcriptName(file.path));
  }

  async function ensureJournal(t: ImportTarget): Promise<Journal> {
    if (t.saved.id !== '') return store.open(t.saved.id);
    await assignId(t);
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
  }

  /** Appends a target's buffer; resolves with the events appended. */
  async function appendBuffered(t: ImportTarget): Promise<number> {
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
        { times: eventTimes(fresh, context.mtime) },
      );
    }
    t.saved.length = journal.length;
    return fresh.length;
  }

  return {
    target,
    async commit(offset, lines, sidechains) {
      let events = 0;
      for (const t of targets.values()) {
        if (t.buffer.length > 0) events += await appendBuffered(t);
      }
      state.offset = offset;
      state.lines = lines;
      state.sidechains = structuredClone(sidechains);
      for (const t of targets.values()) t.saved.converter = t.converter.state();
      await saveImportState(statePath, state);
      return events;
    },
    flush(final) {
      for (const t of targets.values()) t.buffer.push(...t.converter.flush(final));
    },
    buffered: () => [...targets.values()].some((t) => t.buffer.length > 0),
  };
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
