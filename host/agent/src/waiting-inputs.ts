import { queuedInputs, type JournalPage, type WaitingInput } from '@dsh/journal';

/** The inputs the journal shows waiting: the tail page's baseline queue, folded over its events. */
export function waitingInputs(tail: JournalPage): readonly WaitingInput[] {
  let waiting: readonly WaitingInput[] = tail.baseline?.queue ?? [];
  for (const event of tail.events) waiting = queuedInputs.fold(waiting, event);
  return waiting;
}
