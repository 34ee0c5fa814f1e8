import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLines } from '../src/bounded-lines.js';

async function heads(chunks: string[], keep: number): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for await (const line of boundedLines(Readable.from(chunks), keep))
    out.push([line.head, line.length]);
  return out;
}

async function readlineLines(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  const lines = createInterface({ input: Readable.from(chunks), crlfDelay: Infinity });
  for await (const line of lines) out.push(line);
  return out;
}

describe('boundedLines()', () => {
  it('splits lines exactly as readline does, across any chunking', async () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', '\r', '\n', 'é', '😀'),
      maxLength: 60,
    });
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(60), { maxLength: 6 }), async (input, cuts) => {
        const points = [...new Set(cuts.map((c) => Math.min(c, input.length)))].sort(
          (a, b) => a - b,
        );
        const chunks: string[] = [];
        let at = 0;
        for (const point of [...points, input.length]) {
          if (point > at) chunks.push(input.slice(at, point));
          at = Math.max(at, point);
        }
        const expected = await readlineLines(chunks);
        const got = await heads(chunks, 1000);
        expect(got.map(([head]) => head)).toEqual(expected);
        expect(got.map(([, length]) => length)).toEqual(expected.map((line) => line.length));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps only the head of a long line and counts all of it', async () => {
    const chunks = Array.from({ length: 100 }, () => 'x'.repeat(10_000));
    expect(await heads([...chunks, '\nend'], 5)).toEqual([
      ['xxxxx', 1_000_000],
      ['end', 3],
    ]);
  });
});
