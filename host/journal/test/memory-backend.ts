import { randomBytes } from 'node:crypto';
import type { JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import {
  checkpointInterval,
  createProjectionRegistry,
  decodeEventLine,
  eventType,
  formatVersion,
  JournalError,
  LiveFeed,
  messageTypes,
  parseSessionId,
  prepareAppend,
  type CreateJournal,
  type EventPayload,
  type JournalBackend,
  type JournalHead,
  type JournalHeader,
  type JournalLog,
  type JournalSummary,
  type LiveOptions,
  type LogAppendOptions,
  type LogReadOptions,
  type MessageStartsQuery,
  type ProjectionCheckpoint,
  type ProjectionRegistry,
  type ProjectionStates,
  type StoreChange,
} from '../src/index.js';
import type { BackendUnderTest } from './conformance/backend-conformance.js';

/** One session as every backend over the same memory sees it. */
interface MemorySession {
  readonly header: JournalHeader;
  readonly lines: string[];
  /** offsets[i] = bytes of the lines before event i. */
  readonly offsets: number[];
  readonly starts: number[];
  readonly snapshots: JsonValue[];
  states: ProjectionStates;
  updatedAt: Date;
}

/** The storage several memory backends share, like hosts on one database. */
interface MemoryStorage {
  readonly sessions: Map<string, MemorySession>;
  readonly backends: Set<MemoryBackend>;
}

/**
 * A storage for the conformance suite that keeps sessions in memory: a second backend
 * that implements only storage, which shows the journal core's page, baseline and follow
 * need nothing else, and one that several backends share at once (`sharedWriters`).
 */
export function createMemoryStorage(): BackendUnderTest {
  const storage: MemoryStorage = { sessions: new Map(), backends: new Set() };
  return {
    open: () => Promise.resolve(new MemoryBackend(storage)),
    destroy: () => Promise.resolve(storage.sessions.clear()),
  };
}

class MemoryBackend implements JournalBackend {
  readonly location = 'memory';
  readonly projections: ProjectionRegistry = createProjectionRegistry();
  readonly changes = new LiveFeed<StoreChange>();
  readonly tails = new Map<string, LiveFeed<SessionEvent>>();
  closed = false;

  constructor(private readonly storage: MemoryStorage) {
    storage.backends.add(this);
  }

  list(): Promise<JournalSummary[]> {
    return Promise.resolve(
      [...this.storage.sessions.values()].map(({ header, lines, updatedAt }) => ({
        header,
        readOnly: false,
        length: lines.length,
        updatedAt,
        error: undefined,
        title: header.title,
        model: header.model,
      })),
    );
  }

  async summary(sessionId: string): Promise<JournalSummary | undefined> {
    return (await this.list()).find((s) => s.header.sessionId === sessionId);
  }

  remove(sessionId: string): Promise<string> {
    const id = validId(sessionId);
    if (!this.storage.sessions.delete(id)) {
      return Promise.reject(new JournalError('not_found', `session ${id} does not exist`));
    }
    this.tails.get(id)?.close();
    for (const backend of this.storage.backends)
      backend.changes.push([{ kind: 'removed', sessionId: id }]);
    return Promise.resolve('memory');
  }

  async open(sessionId: string): Promise<JournalLog> {
    const id = validId(sessionId);
    const session = this.storage.sessions.get(id);
    if (session === undefined) throw new JournalError('not_found', `session ${id} does not exist`);
    return new MemoryLog(this, session);
  }

  async create(init: CreateJournal): Promise<JournalLog> {
    const parentId = init.parentId ?? '';
    if (parentId !== '' && !this.storage.sessions.has(validId(parentId))) {
      throw new JournalError('not_found', `parent session ${parentId} does not exist`);
    }
    const id = validId(init.sessionId || `m-${randomBytes(6).toString('hex')}`);
    if (this.storage.sessions.has(id)) throw new JournalError('exists', `session ${id} exists`);
    const createdAt = init.createdAt ?? new Date();
    const header: JournalHeader = {
      formatVersion,
      sessionId: id,
      cwd: init.cwd,
      parentId,
      createdAt: createdAt.toISOString(),
      model: init.model ?? '',
      title: init.title ?? '',
    };
    const states = this.projections.initial();
    const session: MemorySession = {
      header,
      lines: [],
      offsets: [0],
      starts: [],
      snapshots: [this.projections.snapshot(states)],
      states,
      updatedAt: createdAt,
    };
    this.storage.sessions.set(id, session);
    for (const backend of this.storage.backends)
      backend.changes.push([{ kind: 'added', sessionId: id }]);
    return new MemoryLog(this, session);
  }

  watch(options: LiveOptions): AsyncIterable<readonly StoreChange[]> {
    return this.changes.subscribe(options.signal);
  }

  close(): Promise<void> {
    this.closed = true;
    this.storage.backends.delete(this);
    this.changes.close();
    for (const feed of this.tails.values()) feed.close();
    return Promise.resolve();
  }

  /** Commits events every backend on the storage then sees. */
  commit(session: MemorySession, events: readonly SessionEvent[], lines: readonly Buffer[]) {
    const { projections } = this;
    events.forEach((event, i) => {
      const seq = session.lines.length;
      const line = lines[i]!.toString('utf8', 0, lines[i]!.length - 1);
      session.lines.push(line);
      session.offsets.push(session.offsets[seq]! + lines[i]!.length);
      if (messageTypes.has(eventType(event))) session.starts.push(seq);
      session.states = projections.fold(session.states, event);
      if ((seq + 1) % checkpointInterval === 0)
        session.snapshots.push(projections.snapshot(session.states));
    });
    const { sessionId } = session.header;
    for (const backend of this.storage.backends) {
      backend.tails.get(sessionId)?.push(events);
      backend.changes.push([{ kind: 'updated', sessionId }]);
    }
  }
}

class MemoryLog implements JournalLog {
  readonly readOnly = false;

  constructor(
    private readonly backend: MemoryBackend,
    private readonly session: MemorySession,
  ) {}

  get header(): JournalHeader {
    return this.session.header;
  }

  get tailCount(): number {
    return this.backend.tails.get(this.header.sessionId)?.count ?? 0;
  }

  head(): Promise<JournalHead> {
    return Promise.resolve({
      length: this.session.lines.length,
      updatedAt: this.session.updatedAt,
    });
  }

  async append(
    payloads: readonly EventPayload[],
    options: LogAppendOptions,
  ): Promise<SessionEvent[]> {
    const { sessionId } = this.header;
    if (this.backend.closed) throw new JournalError('read_only', `session ${sessionId}: closed`);
    const next = this.session.lines.length;
    if (options.expectedSeq !== next) {
      throw new JournalError(
        'conflict',
        `session ${sessionId}: seq ${next} is next, not ${options.expectedSeq}`,
      );
    }
    const prepared = prepareAppend(sessionId, next, payloads, options);
    if (!prepared.ok) throw prepared.error;
    this.backend.commit(this.session, prepared.value.events, prepared.value.lines);
    if (payloads.length > 0) this.session.updatedAt = new Date(prepared.value.lastTimeMs);
    return prepared.value.events;
  }

  async read(from: number, to: number, options?: LogReadOptions): Promise<SessionEvent[]> {
    const { lines, offsets } = this.session;
    if (!(
      Number.isInteger(from) &&
      Number.isInteger(to) &&
      0 <= from &&
      from <= to &&
      to <= lines.length
    )) {
      throw new JournalError('invalid_argument', `read(${from}, ${to}) is out of range`);
    }
    let end = to;
    if (options?.maxBytes !== undefined && from < to) {
      end = from + 1;
      while (end < to && offsets[end + 1]! - offsets[from]! <= options.maxBytes) end += 1;
    }
    const events = lines.slice(from, end).map((line, i) => {
      const decoded = decodeEventLine(line, from + i);
      if (!decoded.ok) throw new JournalError('corrupt', decoded.error);
      return decoded.value;
    });
    if (options?.fields !== 'projections') return events;
    return events.filter((event) => this.backend.projections.reads.has(eventType(event)));
  }

  bytes(from: number, to: number): Promise<number> {
    return Promise.resolve(this.session.offsets[to]! - this.session.offsets[from]!);
  }

  messageStarts(query: MessageStartsQuery): Promise<number[]> {
    const below = this.session.starts.filter((seq) => seq < query.before);
    return Promise.resolve(below.slice(Math.max(0, below.length - query.last)));
  }

  checkpoint(seq: number): Promise<ProjectionCheckpoint> {
    const { snapshots } = this.session;
    const i = Math.min(Math.floor(seq / checkpointInterval), snapshots.length - 1);
    const states = this.backend.projections.restore(snapshots[i]!);
    return Promise.resolve({ seq: i * checkpointInterval, states });
  }

  tail(_from: number, options: LiveOptions): AsyncIterable<readonly SessionEvent[]> {
    const { sessionId } = this.header;
    let feed = this.backend.tails.get(sessionId);
    if (feed === undefined) this.backend.tails.set(sessionId, (feed = new LiveFeed()));
    return feed.subscribe(options.signal);
  }
}

function validId(id: string): string {
  const parsed = parseSessionId(id);
  if (!parsed.ok) throw new JournalError('invalid_argument', parsed.error);
  return parsed.value;
}
