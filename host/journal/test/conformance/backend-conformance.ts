/**
 * The journal backend conformance suite: what every `JournalBackend` must do for the
 * journal core's page, baseline and follow to hold on top of it. A backend's tests call
 * `describeJournalBackend` with a factory of fresh storages; the file backend runs it in
 * `host/journal-file/test/`, and any other backend runs the same suite against its own.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { JournalBackend } from '../../src/index.js';
import type {
  BackendCapabilities,
  BackendUnderTest,
  JournalBackendFactory,
} from './conformance-kit.js';
import { appendCases } from './append-cases.js';
import { liveCases } from './live-cases.js';
import { pageCases } from './page-cases.js';
import { removeCases } from './remove-cases.js';
import { sessionCases } from './session-cases.js';
import { sharedWriterCases } from './shared-writer-cases.js';

export type {
  BackendCapabilities,
  BackendUnderTest,
  JournalBackendFactory,
} from './conformance-kit.js';
export { appendAll, conversation } from './conformance-kit.js';

/** The backend of the running test and the storage under it. */
export interface ConformanceContext {
  readonly backend: JournalBackend;
  readonly storage: BackendUnderTest;
}

/**
 * Registers the conformance suite for the backend `name`: sessions (create, open, list),
 * appends (expected seqs, conflicts, reads, byte counts, message starts, checkpoints),
 * pages through the journal core, live tails, follow and watch, remove and close, and with
 * `capabilities.sharedWriters` two backends on one storage.
 */
export function describeJournalBackend(
  name: string,
  factory: JournalBackendFactory,
  capabilities: BackendCapabilities,
): void {
  describe(`JournalBackend conformance: ${name}`, () => {
    let current: { storage: BackendUnderTest; backend: JournalBackend } | undefined;
    beforeEach(async () => {
      const storage = await factory();
      current = { storage, backend: await storage.open() };
    });
    afterEach(async () => {
      await current?.backend.close();
      await current?.storage.destroy();
      current = undefined;
    });
    const context = (): ConformanceContext => {
      if (current === undefined) throw new Error('no backend: the suite runs inside its tests');
      return current;
    };
    sessionCases(context);
    appendCases(context);
    pageCases(context);
    liveCases(context);
    removeCases(context);
    if (capabilities.sharedWriters) sharedWriterCases(context);
  });
}
