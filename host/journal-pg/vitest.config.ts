import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'host-journal-pg',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // A file's first hook starts its PostgreSQL cluster (initdb takes seconds on a busy machine).
    hookTimeout: 60_000,
    environment: 'node',
  },
});
