import { describeJournalBackend } from './conformance/backend-conformance.js';
import { createMemoryStorage } from './memory-backend.js';

// A backend that only stores: the journal core's page, baseline and follow hold over it.
describeJournalBackend('memory', () => Promise.resolve(createMemoryStorage()), {
  sharedWriters: true,
});
