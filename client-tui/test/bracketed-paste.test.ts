import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { filterPastes, maxPasteChars } from '../src/ui/bracketed-paste.js';

async function run(chunks: readonly string[]) {
  const source = new PassThrough();
  const pastes: string[] = [];
  const cuts: boolean[] = [];
  const { input, dispose } = filterPastes(source, (text, cut) => {
    pastes.push(text);
    cuts.push(cut);
  });
  let keys = '';
  input.on('data', (data: Buffer) => (keys += data.toString('utf8')));
  for (const chunk of chunks) {
    source.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 40));
  dispose();
  return { pastes, cuts, keys };
}

describe('filterPastes()', () => {
  it.each([
    ['keys pass through', ['abc'], [], 'abc'],
    ['a paste arrives whole', ['x\x1b[200~one\rtwo\x1b[201~y'], ['one\rtwo'], 'xy'],
    [
      'markers split across chunks',
      ['a\x1b[2', '00~li', 'ne 1\nline 2\x1b[20', '1~b'],
      ['line 1\nline 2'],
      'ab',
    ],
    ['a lone Esc goes on as a key', ['\x1b'], [], '\x1b'],
    ['a lone Esc then a key stay two keys', ['\x1b', 'k'], [], '\x1bk'],
    ['Alt+Enter becomes the newline key', ['a\x1b\rb'], [], 'a\nb'],
    ['key escapes inside a paste are text', ['\x1b[200~\x1b[A\x1b[201~'], ['\x1b[A'], ''],
  ])('%s', async (_name, chunks, pastes, keys) => {
    const result = await run(chunks);
    expect(result.pastes).toEqual(pastes);
    expect(result.keys).toBe(keys);
  });

  it(`cuts a paste at ${maxPasteChars} characters and says so`, async () => {
    const big = 'x'.repeat(maxPasteChars + 10);
    const result = await run(['\x1b[200~', big, '\x1b[201~']);
    expect(result.pastes[0]?.length).toBe(maxPasteChars);
    expect(result.cuts).toEqual([true]);
  });
});
