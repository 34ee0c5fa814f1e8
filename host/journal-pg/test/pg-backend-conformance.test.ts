import { afterAll, beforeAll } from 'vitest';
import { describeJournalBackend } from '@dsh/journal/conformance';
import { createPgJournalBackend } from '../src/index.js';
import { freshSchema, skipWithoutPostgres, startPostgres, type TestPostgres } from './test-kit.js';

// One cluster per file; each test gets its own schema, so its tables start empty.
const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterAll(async () => {
  await postgres?.destroy();
});

if (!skip) {
  describeJournalBackend(
    'postgres',
    async () => {
      const schema = freshSchema();
      const url = postgres!.url;
      return {
        open: () => createPgJournalBackend({ url, schema, poolSize: 4 }),
        destroy: () => Promise.resolve(),
      };
    },
    { sharedWriters: true },
  );
}
