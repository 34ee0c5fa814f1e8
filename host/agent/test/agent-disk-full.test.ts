import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { ContentBlockSchema } from '@dsh/gen/content';
import { ExtensionEventSchema, SessionEventSchema, TurnEndReason } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentRuntime, type AgentRuntime } from '../src/index.js';
import { encodeEventLine, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import type { ModelProvider } from '@dsh/providers';
import type { Tool } from '@dsh/tools';
import { mountTmpfs, tmpfsMissing, type Tmpfs } from '@dsh/journal-file/test-kit';
import { typeName } from './harness.js';
import { scripted, step } from './scripted-provider.js';

const missing = tmpfsMissing();
if (missing !== undefined) console.warn(`skipping the agent disk-full tests: ${missing}`);

let disk: Tmpfs;
let store: JournalStore;
let runtime: AgentRuntime;

let sessionId = '';

/**
 * Fills the disk so that not one more byte of the journal fits: first an extension
 * event pads the journal file to a whole tmpfs page (a file's last page has room that a
 * full disk still lets it use), then a filler takes every free page.
 */
async function fillDisk(): Promise<void> {
  const journal = await store.open(sessionId);
  const path = join(disk.dir, 'sessions', `${sessionId}.jsonl`);
  const line = (pad: string) =>
    Buffer.byteLength(
      encodeEventLine(
        create(SessionEventSchema, {
          seq: journal.length,
          time: timestampNow(),
          payload: {
            case: 'extension',
            value: { type: 'test/pad', dataJson: JSON.stringify({ pad }) },
          },
        }),
      ) + '\n',
    );
  const size = (await stat(path)).size + line('');
  await journal.append([
    {
      case: 'extension',
      value: create(ExtensionEventSchema, {
        type: 'test/pad',
        dataJson: JSON.stringify({ pad: 'p'.repeat((4096 - (size % 4096)) % 4096) }),
      }),
    },
  ]);
  expect((await stat(path)).size % 4096).toBe(0);
  await disk.fill();
}

/** A tool that fills the disk while it runs, so its own result cannot be written. */
const fillDiskTool = (): Tool<Record<string, never>> => ({
  name: 'fill_disk',
  description: 'Fills the disk.',
  parameters: { type: 'object', properties: {} },
  parseArgs: () => ({ ok: true, value: {} }),
  execute: async () => {
    await fillDisk();
    return { content: 'filled', isError: false, value: undefined };
  },
});

async function start(provider: ModelProvider): Promise<string> {
  const dataDir = join(disk.dir, 'sessions');
  const cwd = join(disk.dir, 'work');
  await mkdir(cwd);
  store = await createJournalStore({ dataDir });
  runtime = createAgentRuntime({
    store,
    provider,
    tools: [fillDiskTool()],
    spillRoot: join(disk.dir, 'spill'),
  });
  sessionId = (await store.create({ cwd })).header.sessionId;
  return sessionId;
}

function prompt(sessionId: string, text: string) {
  return runtime.prompt(sessionId, {
    content: [create(ContentBlockSchema, { block: { case: 'text', value: { text } } })],
    mode: PromptMode.QUEUE,
  });
}

/** The session's event types as a fresh store reads them from disk, chunks collapsed. */
async function typesOnDisk(sessionId: string): Promise<string[]> {
  const fresh = await createJournalStore({ dataDir: join(disk.dir, 'sessions') });
  const journal = await fresh.open(sessionId);
  const list = await journal.read(0, journal.length);
  await fresh.close();
  list.forEach((event, i) => expect(event.seq).toBe(i));
  const names = list.map(typeName);
  return names.filter((name, i) => !(name === 'assistant/chunk' && names[i - 1] === name));
}

beforeEach(async () => {
  if (missing === undefined) disk = await mountTmpfs(2 * 1024 * 1024);
});
afterEach(async () => {
  if (missing !== undefined) return;
  await runtime?.close();
  await store?.close();
  await disk.unmount();
});

describe.skipIf(missing !== undefined)('an agent turn on a full disk', () => {
  it('refuses a prompt whose turn cannot start, with the no_space error', async () => {
    const id = await start(scripted([step('hello')]));
    await fillDisk();
    const error = await prompt(id, 'hi').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'no_space' });
    expect(runtime.isRunning(id)).toBe(false);
    await disk.free();
    await prompt(id, 'hi again');
    await runtime.idle(id);
    expect(await typesOnDisk(id)).toEqual([
      'test/pad',
      'user/message',
      'turn/start',
      'context/message',
      'assistant/chunk',
      'assistant/message',
      'turn/end',
    ]);
  });

  it('stops a turn whose result cannot be written, and closes it first on the next prompt', async () => {
    const id = await start(
      scripted([step('filling', [{ id: 'call-fill', name: 'fill_disk' }]), step('back')]),
    );
    await prompt(id, 'fill it');
    await runtime.idle(id);
    expect(runtime.isRunning(id)).toBe(false);
    const stopped = await typesOnDisk(id);
    expect(stopped.slice(-2)).toEqual(['tool/call', 'test/pad']);
    // Still full: the next prompt fails clearly, nothing is written.
    expect(await prompt(id, 'again').catch((e: unknown) => e)).toMatchObject({ kind: 'no_space' });
    expect(await typesOnDisk(id)).toEqual(stopped);
    await disk.free();
    await prompt(id, 'again');
    await runtime.idle(id);
    const journal = await store.open(id);
    const events = await journal.read(0, journal.length);
    const closing = events.slice(events.findIndex((e) => e.payload.case === 'toolCall') + 2);
    expect(closing.slice(0, 3).map((e) => e.payload)).toMatchObject([
      { case: 'toolResult', value: { callId: 'call-fill', error: { code: 'interrupted' } } },
      {
        case: 'agentError',
        value: {
          code: 'journal_write_failed',
          message: expect.stringMatching(
            /^Turn 1 stopped: the host could not write to this session's journal \(session .*: cannot append: the disk holding the data dir .* is full \(ENOSPC\)/,
          ),
        },
      },
      { case: 'turnEnd', value: { turn: 1, reason: TurnEndReason.CANCELLED } },
    ]);
    expect(await typesOnDisk(id)).toEqual([
      ...stopped,
      'tool/result',
      'agent/error',
      'turn/end',
      'user/message',
      'turn/start',
      'assistant/chunk',
      'assistant/message',
      'turn/end',
    ]);
  });

  it('stops a turn whose streamed chunks cannot be written, with no unhandled rejection', async () => {
    const id = await start(
      scripted([step('streaming into a full disk'), step('back')], async (at, i) => {
        if (at === 0 && i === 0) await fillDisk();
        // Chunks a tick apart, as from a real model: each goes out in its own batch.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }),
    );
    await prompt(id, 'stream');
    await runtime.idle(id);
    expect(runtime.isRunning(id)).toBe(false);
    await disk.free();
    await prompt(id, 'again');
    await runtime.idle(id);
    const types = await typesOnDisk(id);
    expect(types.slice(-7)).toEqual([
      'agent/error',
      'turn/end',
      'user/message',
      'turn/start',
      'assistant/chunk',
      'assistant/message',
      'turn/end',
    ]);
    expect(types.slice(0, 4)).toEqual([
      'user/message',
      'turn/start',
      'context/message',
      'test/pad',
    ]);
    expect(types.filter((t) => t === 'turn/start')).toHaveLength(2);
    expect(types.filter((t) => t === 'turn/end')).toHaveLength(2);
  });
});
