import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { parseSpillNotice } from '@dsh/card-models/contract';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { PromptMode } from '@dsh/gen/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentRuntime, type AgentRuntime } from '../src/index.js';
import { keptTextChars } from '../src/fit-payloads.js';
import { maxEventLineBytes, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import type { ModelProvider } from '@dsh/providers';
import type { Tool } from '@dsh/tools';
import { tempDir } from '@dsh/journal-file/test-kit';
import { scripted, step } from './scripted-provider.js';

const huge = 'h'.repeat(maxEventLineBytes + 1024);

/** A tool whose output alone is over the journal's line limit. */
const hugeOutputTool: Tool<Record<string, never>> = {
  name: 'huge_output',
  description: 'Prints a lot.',
  parameters: { type: 'object', properties: {} },
  parseArgs: () => ({ ok: true, value: {} }),
  execute: async () => ({ content: huge, isError: false, value: undefined }),
};

let dir: string;
let cleanup: () => Promise<void>;
let store: JournalStore;
let runtime: AgentRuntime;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await runtime.close();
  await store.close();
  await cleanup();
});

async function run(provider: ModelProvider) {
  const cwd = join(dir, 'work');
  await mkdir(cwd);
  store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  runtime = createAgentRuntime({
    store,
    provider,
    tools: [hugeOutputTool],
    spillRoot: join(dir, 'spill'),
  });
  const journal = await store.create({ cwd });
  const id = journal.header.sessionId;
  await runtime.prompt(id, {
    content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
    mode: PromptMode.QUEUE,
  });
  await runtime.idle(id);
  // Read back through a fresh store: what a client would get after a restart.
  const fresh = await createJournalStore({ dataDir: join(dir, 'sessions') });
  const reopened = await fresh.open(id);
  const events = await reopened.read(0, reopened.length);
  await fresh.close();
  return events;
}

/** The text of a content block list, and the spill file its notice names. */
async function spilled(content: readonly ContentBlock[]) {
  const text = content.map((b) => (b.block.case === 'text' ? b.block.value.text : '')).join('');
  const notice = parseSpillNotice(text);
  return { text, notice, file: notice ? await readFile(notice.path, 'utf8') : undefined };
}

describe('events over the line limit (agent)', () => {
  it('keeps a tool result that is too large as its head and a spill notice naming the whole', async () => {
    const events = await run(
      scripted([step('', [{ id: 'call-huge', name: 'huge_output' }]), step('ok')]),
    );
    const result = events.find((e) => e.payload.case === 'toolResult')!;
    if (result.payload.case !== 'toolResult') throw new Error('no result');
    const { text, notice, file } = await spilled(result.payload.value.content);
    expect(text.startsWith('h'.repeat(keptTextChars) + '\n[output truncated: ')).toBe(true);
    expect(notice?.totalBytes).toBe(huge.length);
    expect(notice?.path.startsWith(join(dir, 'spill'))).toBe(true);
    expect(file).toBe(huge);
    expect(events.at(-1)?.payload.case).toBe('turnEnd');
    expect(events.some((e) => e.payload.case === 'agentError')).toBe(false);
  });

  it('keeps a model answer that is too large the same way, in its chunk and its message', async () => {
    const events = await run(scripted([step(huge)]));
    const message = events.find((e) => e.payload.case === 'assistantMessage')!;
    if (message.payload.case !== 'assistantMessage') throw new Error('no message');
    const { notice, file } = await spilled(message.payload.value.content);
    expect(notice?.totalBytes).toBe(huge.length);
    expect(file).toBe(huge);
    const delta = events.find(
      (e) =>
        e.payload.case === 'assistantChunk' && e.payload.value.chunk?.chunk.case === 'textDelta',
    )!;
    if (delta.payload.case !== 'assistantChunk') throw new Error('no delta');
    const chunk = delta.payload.value.chunk?.chunk;
    expect(chunk?.case === 'textDelta' && parseSpillNotice(chunk.value.text)?.totalBytes).toBe(
      huge.length,
    );
    expect(events.at(-1)?.payload.case).toBe('turnEnd');
  });
});
