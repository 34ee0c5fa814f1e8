// A child process for the kill -9 test: appends batches of numbered events to a journal
// as fast as it can and prints `ack N` once event N is durable, until it is killed.
import { userMessage } from '@dsh/fixtures';
import { createJournalStore } from '../src/index.js';

const [dataDir, sessionId] = process.argv.slice(2);
const store = await createJournalStore({ dataDir: dataDir! });
const journal = await store.open(sessionId!);
let next = journal.length;
for (let round = 0; ; round += 1) {
  // Batches of 1..64 events, some with large bodies, several in flight at once.
  const appends = Array.from({ length: 1 + (round % 4) }, (_, k) => {
    const size = 1 + ((round * 7 + k * 13) % 64);
    const payloads = Array.from({ length: size }, () => {
      const seq = next++;
      return userMessage(`event ${seq} ${seq % 50 === 0 ? 'x'.repeat(200_000) : ''}`);
    });
    return journal.append(payloads);
  });
  for (const appended of await Promise.all(appends)) {
    process.stdout.write(`ack ${appended.at(-1)!.seq}\n`);
  }
}
