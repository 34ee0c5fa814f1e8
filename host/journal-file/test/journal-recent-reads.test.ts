import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJournalStore } from '../src/index.js';
import { conversation, tempDir } from './journal-test-kit.js';

describe('FileJournal.read() of recent events', () => {
  it('serves the appended events and equals a decode of the file', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const dataDir = join(dir, 'data');
      const store = await createJournalStore({ dataDir });
      const journal = await store.create({ cwd: dir });
      const payloads = conversation(40);
      const appended = await journal.append(payloads);
      const recent = await journal.read(0, payloads.length);
      // The same objects the append (and so the live tail) handed out.
      recent.forEach((event, i) => expect(event).toBe(appended[i]));
      const sessionId = journal.header.sessionId;
      await store.close();

      const reopened = await createJournalStore({ dataDir });
      const decoded = await (await reopened.open(sessionId)).read(0, payloads.length);
      expect(decoded).toEqual(recent);
      await reopened.close();
    } finally {
      await cleanup();
    }
  });
});
