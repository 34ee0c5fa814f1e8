/** Test helpers other packages share: journals in temp dirs and a real small tmpfs. */
export * from './journal-test-kit.js';
export * from './tmpfs.js';
export * from './ripgrep-available.js';
export * from './needle-journal.js';
