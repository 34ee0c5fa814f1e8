import type { Journal } from '@dsh/journal';
import type { FileJournalStore } from '@dsh/journal-file';
import { textBlock } from '../content-blocks.js';
import { eventTimes } from '../event-times.js';
import { importPayloads as p } from '../import-payloads.js';
import {
  createOrAdopt,
  journalExists,
  modelOf,
  titleOf,
  unknownEvents,
} from '../import-journals.js';
import { saveImportState, type ImportState, type TargetState } from '../import-state.js';
import type { TranscriptFile } from './import-transcript.js';
import {
  importedSessionId,
  sidechainSessionId,
  subagentSessionId,
  transcriptName,
} from './import-session-ids.js';
import { contextEnvelopes } from './line-meaning.js';
import type { SidechainRoutes } from './sidechain-routes.js';
import { parentCallOf, parentCallText, type ParentCall } from './subagent-links.js';
import {
  createTranscriptConverter,
  initialConverterState,
  type ConverterLinks,
  type ConverterState,
  type TimedPayload,
  type TranscriptConverter,
} from './transcript-converter.js';

/** One session a transcript feeds: the main one or a sidechain's child session. */
export interface Target {
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

/** What the sessions of one import pass are written from. */
export interface ImportTargetsInit {
  readonly store: FileJournalStore;
  readonly file: TranscriptFile;
  readonly state: ImportState<ConverterState>;
  readonly statePath: string;
  /** The pass's sidechain routing, saved with the offset it corresponds to. */
  readonly chains: SidechainRoutes;
  /** The main converter's links to its children (main transcripts only). */
  readonly links: ConverterLinks | undefined;
  /** The transcript's mtime: the time of events that carry none. */
  readonly mtime: Date;
  readonly onWarning: ((message: string) => void) | undefined;
}

/**
 * The sessions one pass of a transcript writes: each target's converter and buffered
 * events, its journal created (or adopted after a crash) when it first has events, and
 * `commit`, which appends every buffer and saves the import state with the offset it
 * corresponds to, so a pass that stops anywhere is continued without duplicates.
 */
export class ImportTargets {
  /** Events appended so far in this pass. */
  events = 0;
  /** The Claude Code session that ran a sub-agent transcript, once known. */
  parentClaudeId: string | undefined;
  private readonly targets = new Map<string, Target>();

  constructor(private readonly init: ImportTargetsInit) {
    this.parentClaudeId = init.file.parentClaudeId;
  }

  /** True when the pass has read a line for `key` or the state knows it. */
  known(key: string): boolean {
    return this.targets.has(key) || this.init.state.targets[key] !== undefined;
  }

  values(): IterableIterator<Target> {
    return this.targets.values();
  }

  /** The target of `key`, from its saved state or new. */
  async target(key: string): Promise<Target> {
    let found = this.targets.get(key);
    if (found !== undefined) return found;
    const saved = (this.init.state.targets[key] ??= {
      id: '',
      parentId: '',
      length: 0,
      converter: initialConverterState(),
    });
    const skip = saved.id === '' ? [] : await unknownEvents(this.init.store, saved);
    found = {
      key,
      saved,
      converter: createTranscriptConverter(
        saved.converter,
        key === 'main' ? this.init.links : undefined,
      ),
      buffer: [],
      skip,
      cwd: '',
    };
    this.targets.set(key, found);
    return found;
  }

  /** Appends every buffered event and saves the state at `offset` (after `lines` lines). */
  async commit(offset: number, lines: number): Promise<void> {
    const { state } = this.init;
    for (const t of this.targets.values()) {
      if (t.buffer.length === 0) continue;
      const journal = await this.ensureJournal(t);
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
          { times: eventTimes(fresh, this.init.mtime) },
        );
      }
      t.saved.length = journal.length;
      this.events += fresh.length;
    }
    state.offset = offset;
    state.lines = lines;
    state.sidechains = structuredClone(this.init.chains);
    for (const t of this.targets.values()) t.saved.converter = t.converter.state();
    await saveImportState(this.init.statePath, state);
  }

  /** The journal of a target, created (with its parent call shown first) when it has none. */
  private async ensureJournal(t: Target): Promise<Journal> {
    const { store, statePath, state } = this.init;
    if (t.saved.id !== '') return store.open(t.saved.id);
    await this.assignId(t);
    const parent = await this.parentOf(t);
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
  }

  /** Names a new target's session (and its parent): main, sub-agent or sidechain. */
  private async assignId(t: Target): Promise<void> {
    const { file, store } = this.init;
    const { parentClaudeId } = this;
    if (t.key !== 'main') {
      const main = await this.target('main');
      await this.ensureJournal(main);
      t.saved.id = sidechainSessionId(main.saved.id, Number(t.key.slice('side-'.length)));
      t.saved.parentId = main.saved.id;
    } else if (file.kind === 'main' || parentClaudeId === undefined) {
      t.saved.id = importedSessionId(transcriptName(file.path));
    } else {
      t.saved.id = subagentSessionId(parentClaudeId, file.path);
      const parent = importedSessionId(parentClaudeId);
      if (await journalExists(store, parent)) t.saved.parentId = parent;
      else
        this.init.onWarning?.(
          `${file.path}: parent session ${parent} is not imported; importing the sub-agent as a root session`,
        );
    }
  }

  /** The parent call a new child session shows first, as far as it is known. */
  private async parentOf(t: Target): Promise<ParentCall | undefined> {
    const { file, store } = this.init;
    if (t.key === 'main') {
      if (file.kind !== 'subagent' || t.saved.parentId === '' || this.parentClaudeId === undefined)
        return undefined;
      return parentCallOf(store.dataDir, file, this.parentClaudeId);
    }
    return {
      sessionId: t.saved.parentId,
      callId: t.call?.callId,
      description: t.call?.description,
    };
  }
}

/** The creation time of an imported session: the first timestamp its events carry. */
function firstTime(buffer: readonly { time: number | undefined }[]): { createdAt?: Date } {
  const time = buffer.find((event) => event.time !== undefined)?.time;
  return time === undefined ? {} : { createdAt: new Date(time) };
}
