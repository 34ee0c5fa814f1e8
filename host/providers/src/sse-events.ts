import { createParser } from 'eventsource-parser';

/**
 * Reads a server-sent-events body and yields the `data` of each complete event, parsed
 * by `eventsource-parser` as the SSE specification says: multi-line data joined with
 * newlines, comments and other fields skipped, CR, LF and CRLF all ending lines. An
 * event still unterminated when the body ends is discarded, as the specification
 * requires (a truncated chunk is never passed on as if it were whole).
 */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let ready: string[] = [];
  const parser = createParser({ onEvent: (event) => void ready.push(event.data) });
  for await (const bytes of body) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    if (ready.length > 0) {
      const events = ready;
      ready = [];
      yield* events;
    }
  }
  parser.feed(decoder.decode());
  yield* ready;
}
