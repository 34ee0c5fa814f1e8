import type { SessionEvent } from '@dsh/gen/events';

/** The length of each event's journal line, for events this process wrote or read. */
const lengths = new WeakMap<SessionEvent, number>();

/**
 * Notes the length of `event`'s journal line (its UTF-16 length: within a small factor
 * of its bytes), so a stream can bound what it sends at once without encoding it again.
 */
export function noteLineLength(event: SessionEvent, length: number): void {
  lengths.set(event, length);
}

/** The length of `event`'s journal line when this process wrote or read it, else undefined. */
export function lineLength(event: SessionEvent): number | undefined {
  return lengths.get(event);
}
