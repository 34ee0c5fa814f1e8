import { defineConfig } from 'vitest/config';

/** One vitest project per workspace package (plus the repository scripts), by folder. */
const projects = [
  'backoff',
  'card-models',
  'client-live',
  'fixtures',
  'host/journal',
  'host/journal-file',
  'host/journal-pg',
  'host/tools',
  'host/providers',
  'host/agent',
  'host/import',
  'host/server',
  'host/cli',
  'client-tui',
  'client-web',
  'scripts',
  'soak',
  'bench',
];

export default defineConfig({
  test: {
    projects,
    // The watchdog names a file that runs for minutes and ends a run that hangs (scripts/).
    reporters: ['default', './scripts/watchdog-reporter.ts'],
  },
});
