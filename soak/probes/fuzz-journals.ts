import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalsDir } from '@dsh/fixtures/journals';
import { TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import { answerOf, describeAnswer, isClear } from '../lib/answer.js';
import { sessionClient, type SessionClient } from '../lib/clients.js';
import type { Probe } from '../lib/probe.js';
import { readSession } from '../lib/read-session.js';
import { createPrng } from '@dsh/fixtures/prng';
import { corruptions, goodJournal, type Corruption } from './journal-corruptions.js';

const fixtureDir = journalsDir;
/** Words a clear refusal of a damaged journal uses. */
const corruptWords = /corrupt|line \d+|header|format|cannot read|not a|invalid|empty|seq|torn/i;

interface Planted {
  readonly id: string;
  readonly events: number;
  readonly corruption?: Corruption;
}

/**
 * A data dir of good journals beside damaged copies (every kind in `journal-corruptions.ts`,
 * seeded): the host must start, serve every good session whole, recover torn tails, and
 * refuse each damaged one with a clear error while serving the rest.
 */
export const fuzzJournals: Probe = {
  name: 'journals',
  short: true,
  async run(ctx) {
    const damaged = ctx.short ? corruptions.length : corruptions.length * 6;
    const random = createPrng(13).next;
    const dataDir = join(ctx.dir('journals'), 'sessions');
    mkdirSync(dataDir);
    const sources = readdirSync(fixtureDir)
      .filter((n) => n.endsWith('.jsonl') && n !== 'long-paging.jsonl')
      .sort();
    const planted: Planted[] = [];
    for (let i = 0; i < damaged + 10; i++) {
      const id = `fz-${String(i).padStart(4, '0')}`;
      const source = join(fixtureDir, sources[i % sources.length]!);
      const good = goodJournal(source, id);
      const corruption = i < damaged ? corruptions[i % corruptions.length] : undefined;
      writeFileSync(
        join(dataDir, `${id}.jsonl`),
        corruption ? corruption.damage(good.text, random) : good.text,
      );
      planted.push({ id, events: good.events, ...(corruption && { corruption }) });
    }
    const host = await ctx.host({ dataDir });
    const client = sessionClient(host.url);
    const listed = await answerOf((signal) => client.listSessions({}, { signal }), 60_000);
    const failures: string[] = [];
    if (listed.code !== 'ok') failures.push(describeAnswer('ListSessions', listed));
    const served = new Map<string, number>();
    for (const session of planted) {
      const problem = await check(client, session);
      if (problem)
        failures.push(`${session.id} (${session.corruption?.name ?? 'good'}): ${problem}`);
      served.set(
        session.corruption?.name ?? 'good',
        (served.get(session.corruption?.name ?? 'good') ?? 0) + (problem ? 0 : 1),
      );
    }
    const alive = host.alive();
    if (!alive) failures.push('the host died');
    await host.stop();
    return [
      {
        probe: 'fuzzed journals in the data dir',
        tried: planted.length,
        failed: failures.length,
        lost: null,
        required: true,
        note:
          `${planted.length - damaged} good and ${damaged} damaged journals (${corruptions.length} kinds); ` +
          (failures.length > 0
            ? failures.slice(0, 4).join('; ')
            : 'good ones served whole, torn tails recovered, damaged ones refused clearly'),
      },
    ];
  },
};

async function check(client: SessionClient, session: Planted): Promise<string | undefined> {
  const page = await answerOf(
    (signal) => client.page({ sessionId: session.id }, { signal }),
    20_000,
  );
  const expect = session.corruption?.expect ?? 'served';
  const wanted = session.corruption?.keeps?.(session.events) ?? session.events;
  if (page.code === 'ok') {
    const events = await readSession(client, session.id, 20_000).catch((e: Error) => e);
    if (events instanceof Error)
      return `Page works but Follow fails: ${events.message.slice(0, 80)}`;
    if (expect !== 'served') return undefined;
    // A cut that leaves a turn open is closed on first open by appending only.
    const appended = events.slice(wanted);
    if (events.length < wanted || !appended.every(closesDanglingTurn))
      return `served ${events.length} events, not ${wanted}`;
    return undefined;
  }
  if (expect === 'served') return `not served: ${describeAnswer('Page', page)}`;
  return isClear(page, corruptWords)
    ? undefined
    : `unclear refusal: ${describeAnswer('Page', page)}`;
}

/** An event the host appends to close a turn a stopped host left open (nothing else). */
function closesDanglingTurn(event: SessionEvent): boolean {
  const p = event.payload;
  switch (p.case) {
    case 'agentError':
      return p.value.code === 'host_stopped';
    case 'turnEnd':
      return p.value.reason === TurnEndReason.CANCELLED;
    case 'toolResult':
    case 'codeDispatch':
      return p.value.error?.code === 'interrupted';
    case 'approvalResolved':
    case 'questionResolved':
      return true;
    default:
      return false;
  }
}
