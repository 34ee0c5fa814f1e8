import { eventPayloads, type EventPayload } from '@dsh/journal';

/**
 * How the host bounds one call's live output. A delta is recorded when `chunkBytes` of
 * text wait, or when the oldest waiting text is one interval old: `minIntervalMs` at
 * first, then a hundredth of the call's running time, at most `maxIntervalMs`, so a
 * ten-minute command (the shell tools' longest timeout) records at most ~1,500 deltas.
 * Past `budgetBytes` of text or `maxEvents` deltas the call's last delta says
 * `truncated` and nothing more is recorded; the result still carries the output.
 */
export const liveOutputLimits = {
  budgetBytes: 1024 * 1024,
  maxEvents: 2048,
  chunkBytes: 16 * 1024,
  minIntervalMs: 50,
  maxIntervalMs: 500,
} as const;

/** The limits `createLiveOutput` takes; tests and the benchmark may shrink them. */
export type LiveOutputLimits = { readonly [K in keyof typeof liveOutputLimits]: number };

/** One call's live output on its way to the journal. */
export interface LiveOutput {
  /** Adds text the call produced; cheap: it only queues, a timer or the size records. */
  write(text: string): void;
  /** Records what waits (before the call's result) and ignores every later write. */
  close(): void;
}

/**
 * Coalesces a call's output into `tool/output` deltas (combined stream) handed to `emit`
 * in order, within `limits`. Never throws into the tool: `emit` is the caller's
 * (non-blocking) recorder.
 */
export function createLiveOutput(
  callId: string,
  emit: (payload: EventPayload) => void,
  limits: LiveOutputLimits = liveOutputLimits,
  now: () => number = Date.now,
): LiveOutput {
  const started = now();
  let parts: string[] = [];
  let waiting = 0;
  let sent = 0;
  let events = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;

  const record = (text: string, truncated: boolean): void => {
    events++;
    emit(eventPayloads.toolOutput(callId, text, truncated));
  };
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (done || waiting === 0) return;
    const text = parts.length === 1 ? (parts[0] as string) : parts.join('');
    parts = [];
    waiting = 0;
    const bytes = Buffer.byteLength(text);
    if (sent + bytes > limits.budgetBytes) {
      done = true;
      return record(utf8Prefix(text, limits.budgetBytes - sent), true);
    }
    sent += bytes;
    if (events + 1 >= limits.maxEvents) {
      done = true;
      return record(text, true);
    }
    record(text, false);
  };

  return {
    write(text) {
      if (done || text === '') return;
      parts.push(text);
      waiting += text.length;
      // UTF-16 length is at most the UTF-8 length: a cheap lower bound for the size check.
      if (waiting >= limits.chunkBytes) return flush();
      if (timer !== undefined) return;
      const interval = Math.min(
        limits.maxIntervalMs,
        Math.max(limits.minIntervalMs, (now() - started) / 100),
      );
      timer = setTimeout(flush, interval);
      timer.unref?.();
    },
    close() {
      flush();
      done = true;
    },
  };
}

/** The longest start of `text` of at most `bytes` UTF-8 bytes that ends on a character. */
function utf8Prefix(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((encoded[end] as number) & 0xc0) === 0x80) end--;
  return encoded.toString('utf8', 0, end);
}
