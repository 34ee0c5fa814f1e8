import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directive, startFakeModel, type FakeModel } from '../lib/fake-model.js';

let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel();
});
afterAll(() => model.close());

/** The SSE data payloads of one answer, parsed. */
async function ask(messages: unknown[]): Promise<unknown[]> {
  const response = await fetch(`${model.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'soak-fake', stream: true, messages }),
  });
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as unknown);
}

const callOf = (chunks: unknown[]): string | undefined =>
  JSON.stringify(chunks).match(/"name":"([a-z_]+)"/)?.[1];

describe('startFakeModel()', () => {
  const prompt = directive({ tool: 'grep', args: { pattern: 'x' } });
  it.each([
    ['the prompt alone', [{ role: 'user', content: prompt }], 'grep'],
    [
      'the prompt followed by the environment context of a first turn',
      [
        { role: 'user', content: prompt },
        { role: 'user', content: 'Working directory: /tmp' },
      ],
      'grep',
    ],
    [
      'a later turn whose prompt has no directive',
      [
        { role: 'user', content: prompt },
        { role: 'assistant', content: 'done.' },
        { role: 'user', content: 'hello' },
      ],
      undefined,
    ],
    [
      'the tool result of the call',
      [
        { role: 'user', content: prompt },
        { role: 'assistant', content: null },
        { role: 'tool', tool_call_id: 'c', content: 'ok' },
      ],
      undefined,
    ],
  ])('answers %s', async (_name, messages, tool) => {
    expect(callOf(await ask(messages))).toBe(tool);
  });

  it('counts the tool calls it asked for', async () => {
    const before = model.issued('grep');
    await ask([{ role: 'user', content: prompt }]);
    expect(model.issued('grep')).toBe(before + 1);
  });
});
