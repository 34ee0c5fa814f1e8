import type { Baseline } from '@dsh/gen/service';
import type { JournalLog } from './journal-backend.js';
import { JournalError, type JournalPage } from './journal-types.js';
import { checkPageRequest, pageRange } from './page-range.js';
import type { ProjectionRegistry } from './projections/index.js';

/**
 * The message-aligned page of `log` (`length` events long) ending before `beforeSeq` (the
 * tail when undefined), from the backend's message starts, byte counts and one range
 * read, so its cost is O(page) whatever the session's size. The tail page carries the
 * baseline at its start and at its end.
 */
export async function readPage(
  log: JournalLog,
  registry: ProjectionRegistry,
  length: number,
  beforeSeq: number | undefined,
  maxMessages: number,
): Promise<JournalPage> {
  const { sessionId } = log.header;
  const request = checkPageRequest(sessionId, length, beforeSeq, maxMessages);
  if (!request.ok)
    throw new JournalError('invalid_argument', `session ${sessionId}: ${request.error}`);
  const { end, size } = request.value;
  const starts = await log.messageStarts({ before: end, last: size + 1 });
  const { start } = await pageRange(starts, end, size, (from, to) => log.bytes(from, to));
  const tail = beforeSeq === undefined;
  const [events, baseline, endBaseline] = await Promise.all([
    log.read(start, end),
    tail ? baselineAt(log, registry, start) : undefined,
    tail ? baselineAt(log, registry, end) : undefined,
  ]);
  return { events, hasMore: start > 0, baseline, endBaseline };
}

/**
 * The baseline before `seq`: the checkpoint at or below it, folded over the (fewer than
 * 256) events up to `seq`, decoded only in the fields the projections read.
 */
export async function baselineAt(
  log: JournalLog,
  registry: ProjectionRegistry,
  seq: number,
): Promise<Baseline> {
  const checkpoint = await log.checkpoint(seq);
  let states = checkpoint.states;
  for (const event of await log.read(checkpoint.seq, seq, { fields: 'projections' })) {
    states = registry.fold(states, event);
  }
  return registry.baseline(states, seq);
}
