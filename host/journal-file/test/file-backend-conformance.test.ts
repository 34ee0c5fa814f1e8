import { describeJournalBackend } from '@dsh/journal/conformance';
import { createFileJournalBackend } from '../src/index.js';
import { tempDir } from './journal-test-kit.js';

// One writer per data dir (the data-dir lock), so no two backends append to one storage.
describeJournalBackend(
  'file',
  async () => {
    const { dir, cleanup } = await tempDir();
    return { open: () => createFileJournalBackend({ dataDir: dir }), destroy: cleanup };
  },
  { sharedWriters: false },
);
