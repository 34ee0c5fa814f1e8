import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { answerOf, describeAnswer } from './answer.js';
import type { SessionClient } from './clients.js';
import { readJournalFile, seqProblems } from './journal-file.js';

/** Journal files in `dataDir` that are torn, hold bad lines or break the seq order. */
export function filesProblems(dataDir: string): string[] {
  const problems: string[] = [];
  for (const name of readdirSync(dataDir).filter((n) => n.endsWith('.jsonl'))) {
    const file = readJournalFile(join(dataDir, name));
    const { duplicates, gaps } = seqProblems(file.seqs);
    if (!file.headerOk || file.tornTail || file.badLines > 0 || duplicates > 0 || gaps > 0) {
      problems.push(
        `${name}: header ${file.headerOk ? 'ok' : 'bad'}, torn tail ${file.tornTail}, ${file.badLines} bad lines, ${duplicates} duplicate and ${gaps} missing seqs`,
      );
    }
  }
  return problems;
}

/** Sessions `ListSessions` shows with an error (or its own failure), `when` naming the moment. */
export async function listedProblems(client: SessionClient, when: string): Promise<string[]> {
  const listed = await answerOf((signal) => client.listSessions({}, { signal }));
  if (listed.code !== 'ok') return [describeAnswer(`ListSessions ${when}`, listed)];
  const { sessions } = await client.listSessions({});
  return sessions
    .filter((s) => s.error !== '')
    .map((s) => `listed ${when} with an error: ${s.id}: ${s.error.slice(0, 100)}`);
}
