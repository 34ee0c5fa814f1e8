import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createModelHistory, fixedTokens, loadModelHistory, systemPrompt } from '@dsh/agent';
import { writeLongJournal } from '@dsh/cli/long-journal';
import {
  assistantMessage,
  contextCompaction,
  events,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import type { Journal } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { percentile, sample, since, type BenchRow } from './bench-row.js';
import { benchDataDir } from './page-bench.js';

/** Events after the compaction: what the model's history is built from. */
const tailTurns = 20;
/** Events before the compaction's cut that it keeps whole (the newest turns). */
const keptTurns = 3;

function turn(n: number): Payload[] {
  return [
    turnStart(n),
    userMessage(`Question ${n}: what does the next part of the build do?`),
    assistantMessage({ turn: n }, [`Answer ${n}: it compiles, then runs the tests of part ${n}.`]),
    turnEnd(n),
  ];
}

/**
 * A journal of `size` events whose last `tailTurns` turns follow a compaction that kept
 * the `keptTurns` turns before it: written once, cached like the page bench's journals.
 */
async function compactedJournal(
  size: number,
): Promise<{ journal: Journal; close(): Promise<void> }> {
  mkdirSync(benchDataDir, { recursive: true });
  const id = `compacted-${size}`;
  const after = 1 + tailTurns * 4;
  const before = size - after;
  const path = join(benchDataDir, `${id}.jsonl`);
  const fresh = !existsSync(path);
  if (fresh) await writeLongJournal(path, before - keptTurns * 4, { sessionId: id });
  const store = await createJournalStore({ dataDir: benchDataDir });
  const journal = await store.open(id);
  if (fresh || journal.length !== size) {
    if (journal.length !== before - keptTurns * 4) {
      await store.close();
      throw new Error(`${path} holds ${journal.length} events: delete it and run the bench again`);
    }
    const kept = journal.length;
    for (let n = 1; n <= keptTurns; n++) await journal.append(turn(100_000 + n));
    await journal.append([
      contextCompaction(
        'The build has many parts; every part compiled and its tests passed.',
        kept,
      ),
    ]);
    for (let n = 1; n <= tailTurns; n++) await journal.append(turn(200_000 + n));
  }
  return { journal, close: () => store.close() };
}

/** Feeds a history every event of `journal` from seq 0, in bounded reads. */
async function historyFromSeq0(journal: Journal): Promise<void> {
  const history = createModelHistory({ resultTokens: 50_000 });
  for (let at = 0; at < journal.length;) {
    const read = await journal.read(at, journal.length, { maxBytes: 8 * 1024 * 1024 });
    history.add(read);
    at += read.length;
  }
}

/**
 * The agent history of a long session with a compaction near the end: the time to open it
 * (read from the latest compaction's cut, not seq 0) and the cost of building one step's
 * request, at each size. Both should stay flat as the session grows.
 */
export async function compactionBench(quick: boolean): Promise<BenchRow[]> {
  const sizes = quick ? [1_000, 10_000] : [1_000, 1_000_000];
  const rows: BenchRow[] = [];
  const opens = new Map<number, number>();
  const steps = new Map<number, number>();
  const prompt = systemPrompt('/home/dev/project');
  for (const size of sizes) {
    const label = size.toLocaleString('en-US');
    const prepared = performance.now();
    const { journal, close } = await compactedJournal(size);
    const prepareMs = since(prepared);
    let firstSeq = 0;
    const open = await sample(
      20,
      async () => {
        const history = createModelHistory({ resultTokens: 50_000 });
        firstSeq = await loadModelHistory(journal, history);
      },
      50, // The first size also warms the JIT: enough runs that it does not count.
    );
    const whole = await sample(size >= 1_000_000 ? 1 : 3, () => historyFromSeq0(journal), 0);
    const history = createModelHistory({ resultTokens: 50_000 });
    await loadModelHistory(journal, history);
    // One step: the model's answer and the next question join the history, then the
    // request (system prompt, messages, token estimate) is built.
    let next = journal.length;
    let n = 300_000;
    const step = await sample(
      200,
      async () => {
        n += 1;
        const added = events(
          [assistantMessage({ turn: n }, [`Step ${n} done.`]), userMessage(`Go on with ${n}.`)],
          next,
        );
        next += added.length;
        history.add(added);
        const messages = [{ role: 'system', content: prompt }, ...history.messages()];
        if (messages.length === 0 || history.tokens(fixedTokens(prompt, [])) <= 0) {
          throw new Error('an empty request');
        }
      },
      50,
    );
    opens.set(size, percentile(open, 50));
    steps.set(size, percentile(step, 50));
    rows.push(
      {
        section: 'compaction',
        name: `open agent history p50, ${label} events`,
        value: percentile(open, 50),
        unit: 'ms',
        note: `reads seq ${firstSeq.toLocaleString('en-US')} on (${(size - firstSeq).toLocaleString('en-US')} events); journal ready in ${Math.round(prepareMs)} ms`,
      },
      {
        section: 'compaction',
        name: `history from seq 0, ${label} events`,
        value: percentile(whole, 50),
        unit: 'ms',
        note: 'comparison: decode every event, as without a compaction mark',
      },
      {
        section: 'compaction',
        name: `build one step's request p50, ${label} events`,
        value: percentile(step, 50),
        unit: 'ms',
        note: '200 steps after the compaction',
      },
    );
    await close();
  }
  const [small, large] = [sizes[0] as number, sizes[sizes.length - 1] as number];
  const ratio = (m: Map<number, number>) => (m.get(large) ?? NaN) / (m.get(small) ?? NaN);
  const of = `${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')}`;
  rows.push(
    {
      section: 'compaction',
      name: `open agent history ratio ${of}`,
      value: ratio(opens),
      unit: 'x',
      note: 'target <= 1.5',
    },
    {
      section: 'compaction',
      name: `request building ratio ${of}`,
      value: ratio(steps),
      unit: 'x',
      note: 'flat: target <= 1.5',
    },
  );
  return rows;
}
