import { describe, expect, it } from 'vitest';
import { retryDelay, sseEvents } from '../src/index.js';

async function* bytes(parts: (string | number[])[]): AsyncGenerator<Uint8Array> {
  for (const part of parts)
    yield typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part);
}

async function events(parts: (string | number[])[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseEvents(bytes(parts))) out.push(data);
  return out;
}

describe('sseEvents()', () => {
  it.each([
    { name: 'LF framing', parts: ['data: a\n\ndata: b\n\n'], want: ['a', 'b'] },
    { name: 'CRLF framing', parts: ['data: a\r\n\r\ndata: b\r\n\r\n'], want: ['a', 'b'] },
    {
      name: 'CRLF split across reads',
      parts: ['data: a\r', '\n\r', '\ndata: b\r\n\r\n'],
      want: ['a', 'b'],
    },
    { name: 'multi-line data', parts: ['data: a\ndata: b\n\n'], want: ['a\nb'] },
    {
      name: 'comments and other fields',
      parts: [': keep-alive\nevent: x\nid: 1\ndata:{"x":1}\n\n'],
      want: ['{"x":1}'],
    },
    { name: 'a line split mid-way', parts: ['da', 'ta: hel', 'lo\n', '\n'], want: ['hello'] },
    {
      name: 'a UTF-8 character split across reads',
      parts: ['data: ', [0xe2, 0x82], [0xac, 0x0a, 0x0a]],
      want: ['€'],
    },
    { name: 'a lone CR as line end', parts: ['data: a\r\rdata: b\r\n\r\n'], want: ['a', 'b'] },
    {
      name: 'a truncated last event (no blank line): discarded',
      parts: ['data: a\n\ndata: {"choices":[{"del'],
      want: ['a'],
    },
    { name: 'a last event ended by one newline only', parts: ['data: [DONE]\n'], want: [] },
    { name: 'a body that ends inside a line', parts: ['data: [DONE]'], want: [] },
    { name: 'a field without a space', parts: ['data:x\n\n'], want: ['x'] },
  ])('parses $name', async (c) => {
    expect(await events(c.parts)).toEqual(c.want);
  });
});

describe('retryDelay()', () => {
  it.each([
    { attempt: 1, retryAfter: null, want: 100 },
    { attempt: 3, retryAfter: null, want: 400 },
    { attempt: 10, retryAfter: null, want: 5000 },
    { attempt: 1, retryAfter: '2', want: 2000 },
    { attempt: 1, retryAfter: '0', want: 0 },
    { attempt: 1, retryAfter: '600', want: 5000 },
    { attempt: 1, retryAfter: new Date(1_000_000 + 3000).toUTCString(), want: 3000 },
    { attempt: 2, retryAfter: 'soon', want: 200 },
  ])('attempt $attempt, Retry-After $retryAfter -> $want ms', (c) => {
    expect(retryDelay(c.attempt, c.retryAfter, 100, 5000, 1_000_000, () => 0)).toBe(c.want);
  });

  it.each([
    { attempt: 3, retryAfter: null, random: 0.5, want: 360 },
    { attempt: 10, retryAfter: null, random: 0.999, want: 4001 },
    { attempt: 1, retryAfter: '2', random: 0.999, want: 2000 },
  ])('jitters only its own backoff: $retryAfter, random $random -> $want ms', (c) => {
    expect(retryDelay(c.attempt, c.retryAfter, 100, 5000, 1_000_000, () => c.random)).toBe(c.want);
  });
});
