import type { Tool } from '@dsh/tools';
import { deltaChunk, toolReply, usageChunk, type FakeReply } from '@dsh/providers/test-kit';

/** `emit {size, tag}`: returns `size` characters of numbered lines, to grow a history. */
export const emitTool: Tool<{ size: number; tag: string }> = {
  name: 'emit',
  description: 'Returns size characters of text.',
  parameters: {
    type: 'object',
    properties: { size: { type: 'number' }, tag: { type: 'string' } },
    required: ['size', 'tag'],
  },
  parseArgs(raw) {
    try {
      const { size, tag } = JSON.parse(raw) as { size?: unknown; tag?: unknown };
      return typeof size === 'number' && typeof tag === 'string'
        ? { ok: true, value: { size, tag } }
        : { ok: false, error: 'size must be a number and tag a string' };
    } catch (error) {
      return { ok: false, error: `arguments are not valid JSON: ${(error as Error).message}` };
    }
  },
  execute: async ({ size, tag }) => {
    const content = emitted(size, tag);
    return { content, isError: false, value: content.length };
  },
};

/** The text `emit` returns. */
export function emitted(size: number, tag: string): string {
  let text = '';
  for (let line = 0; text.length < size; line++) text += `${tag} line ${line}\n`;
  return text.slice(0, size);
}

/**
 * The fake provider's tokenizer: UTF-8 bytes / 4 of the request's messages and tools as
 * JSON, the way the wire carries them (somewhat fewer tokens than the host estimates).
 */
export function fakeTokens(body: Record<string, unknown>): number {
  return Math.ceil(
    Buffer.byteLength(JSON.stringify({ m: body['messages'], t: body['tools'] ?? [] })) / 4,
  );
}

/** True for a summarising request (a compaction). */
export function isCompaction(body: Record<string, unknown>): boolean {
  const messages = body['messages'] as { role: string; content: string }[];
  return messages[0]?.content.startsWith('You summarise the conversation') ?? false;
}

/** The summary the fake model writes for its `n`th compaction. */
export function fakeSummary(n: number): string {
  return `Summary ${n}: the person asked for a long job of emit calls; it is going on.`;
}

/** A text answer with usage from the fake tokenizer. */
export function textAnswer(text: string, body: Record<string, unknown>): FakeReply {
  return {
    kind: 'stream',
    chunks: [
      deltaChunk({ role: 'assistant', content: '' }),
      deltaChunk({ content: text }),
      deltaChunk({}, 'stop'),
      usageChunk(fakeTokens(body), Math.ceil(text.length / 4)),
    ],
  };
}

/**
 * A model that calls `emit` (size `size`) for its first `steps` steps, answers every
 * later step with text, and summarises when asked; it reports usage with `fakeTokens`.
 * `more(n)` lets it call `emit` for `n` more steps.
 */
export function emittingModel(steps: number, size: number) {
  let stepsServed = 0;
  let limit = steps;
  let compactions = 0;
  return {
    get compactions() {
      return compactions;
    },
    more(n: number) {
      limit = stepsServed + n;
    },
    handle(body: Record<string, unknown>): FakeReply {
      if (isCompaction(body)) return textAnswer(fakeSummary(++compactions), body);
      if (stepsServed >= limit) return textAnswer('All done.', body);
      stepsServed++;
      const tag = `t${compactions}-${stepsServed}`;
      return toolReply([{ id: `call_${tag}`, name: 'emit', args: JSON.stringify({ size, tag }) }], {
        usage: usageChunk(fakeTokens(body), 12),
      });
    },
  };
}
