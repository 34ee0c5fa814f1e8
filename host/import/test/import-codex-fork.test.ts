import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { afterEach, describe, expect, it } from 'vitest';
import { importCodex, importRollout } from '../src/index.js';
import { createForkScan, forkedOutputHead } from '../src/codex/forked-history.js';
import { parseRolloutLine } from '../src/codex/rollout-line.js';
import { allEvents, cardsByCallId, rendition, writeRollouts } from './import-test-kit.js';

const dirs: string[] = [];
const stores: FileJournalStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

let clock = Date.parse('2026-03-02T09:00:00Z');
const line = (type: string, payload: object) => ({
  timestamp: new Date((clock += 1000)).toISOString(),
  type,
  payload,
});
const meta = (id: string, extra: object = {}) =>
  line('session_meta', {
    id,
    cwd: '/w',
    originator: 'codex_cli_rs',
    cli_version: '0.106.0',
    ...extra,
  });
const message = (role: string, text: string) =>
  line('response_item', {
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
  });
const event = (type: string, extra: object = {}) => line('event_msg', { type, ...extra });
const prompt = (text: string) => [
  message('user', text),
  event('user_message', { message: text, images: [] }),
];
const call = (id: string, name: string, args: object) =>
  line('response_item', {
    type: 'function_call',
    call_id: id,
    name,
    arguments: JSON.stringify(args),
  });
const output = (id: string, text: string) =>
  line('response_item', { type: 'function_call_output', call_id: id, output: text });
const turnContext = (turn: string) =>
  line('turn_context', {
    turn_id: turn,
    cwd: '/w',
    approval_policy: 'on-request',
    model: 'gpt-5.3-codex',
  });

const parentId = '019ca000-0000-7000-8000-00000000000a';
const childId = '019ca000-0000-7000-8000-00000000000b';
const spawnArgs = { message: 'Check the lexer tests', fork_context: true };

/** The parent's rollout up to its spawn call (what Codex copies into a forked child). */
const parentHead = [
  meta(parentId, { source: 'cli' }),
  message('developer', '<permissions instructions>on-request</permissions instructions>'),
  message('user', '<environment_context><cwd>/w</cwd></environment_context>'),
  event('task_started', { turn_id: 't1' }),
  ...prompt('Fix the parser'),
  turnContext('t1'),
  line('response_item', {
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'Reading' }],
  }),
  call('call_ls', 'shell', { command: ['ls'] }),
  output('call_ls', 'parser.ts'),
  message('assistant', 'The parser is in parser.ts.'),
  event('task_complete', { turn_id: 't1' }),
  event('task_started', { turn_id: 't2' }),
  ...prompt('Now also check the lexer, in parallel'),
  turnContext('t2'),
  event('token_count', { info: null }),
  call('call_spawn', 'spawn_agent', spawnArgs),
];
const parent = [
  ...parentHead,
  event('collab_agent_spawn_begin', { call_id: 'call_spawn', sender_thread_id: parentId }),
  event('collab_agent_spawn_end', {
    call_id: 'call_spawn',
    sender_thread_id: parentId,
    new_thread_id: childId,
    new_agent_nickname: 'Euclid',
    status: 'running',
  }),
  output('call_spawn', JSON.stringify({ agent_id: childId, nickname: 'Euclid' })),
  message('assistant', 'Spawned a helper.'),
  event('task_complete', { turn_id: 't2' }),
];

const childMeta = meta(childId, {
  forked_from_id: parentId,
  agent_nickname: 'Euclid',
  source: {
    subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1, agent_nickname: 'Euclid' } },
  },
});
/** What the child did itself: its context, its turn with the task, its answer. */
const childOwn = [
  message('developer', '<collaboration_mode>default</collaboration_mode>'),
  event('task_started', { turn_id: 'c1' }),
  ...prompt('Check the lexer tests'),
  turnContext('c1'),
  call('call_cat', 'shell', { command: ['cat', 'lexer.test.ts'] }),
  output('call_cat', 'ok'),
  message('assistant', 'The lexer tests pass.'),
  event('task_complete', { turn_id: 'c1' }),
];

/** Codex with `fork_context` (control.rs `FORKED_SPAWN_AGENT_OUTPUT_MESSAGE`): the whole parent rollout, then the marker output. */
const unfilteredCopy = [
  ...parentHead,
  output(
    'call_spawn',
    `${forkedOutputHead} The prior conversation history was forked from your parent agent.`,
  ),
];
/** Later Codex (`keep_forked_rollout_item`): no tool calls, reasoning or marker output. */
const filteredCopy = parentHead.filter(
  (l) => l.type !== 'response_item' || (l.payload as { type: string }).type === 'message',
);

const parse = (l: object) => {
  const parsed = parseRolloutLine(JSON.stringify(l));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

describe('createForkScan()', () => {
  const cases: {
    name: string;
    lines: object[];
    end: { lines: number; callId?: string } | undefined;
  }[] = [
    {
      name: 'ends after the marker output of an unfiltered copy',
      lines: [...unfilteredCopy, ...childOwn],
      end: { lines: unfilteredCopy.length, callId: 'call_spawn' },
    },
    {
      name: 'ends before the context of the child’s first turn in a filtered copy',
      lines: [...filteredCopy, ...childOwn],
      end: { lines: filteredCopy.length, callId: undefined },
    },
    {
      name: 'ends a last-N-turns copy (no session_meta, no task_started of its first turn)',
      lines: [...prompt('Now also check the lexer, in parallel'), turnContext('t2'), ...childOwn],
      end: { lines: 3, callId: undefined },
    },
    {
      name: 'skips the nested copy of a parent that was forked itself',
      lines: [
        meta(parentId),
        meta('019ca000-0000-7000-8000-0000000000ff'),
        event('task_started', { turn_id: 'g1' }),
        ...prompt('grandparent task'),
        call('call_g', 'spawn_agent', spawnArgs),
        output('call_g', `${forkedOutputHead} …`),
        ...unfilteredCopy.slice(1),
        ...childOwn,
      ],
      end: { lines: 7 + unfilteredCopy.length - 1, callId: 'call_spawn' },
    },
    {
      name: 'does not end an unfiltered copy at a turn that never ended',
      lines: [...parentHead, ...childOwn],
      end: undefined,
    },
    { name: 'does not end without the child’s turn', lines: filteredCopy, end: undefined },
  ];
  for (const { name, lines, end } of cases) {
    it(name, () => {
      const scan = createForkScan();
      let found: { lines: number; callId?: string } | undefined;
      for (const l of lines) {
        found = scan.push(parse(l));
        if (found !== undefined) break;
      }
      expect(found).toEqual(end);
    });
  }
});

/** A fresh store and a sessions dir holding `files` (name -> rollout lines). */
async function sandbox(files: Record<string, readonly object[]>) {
  const { dir, root, sessionsDir } = await writeRollouts(files, '2026/03/02');
  dirs.push(dir);
  const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  stores.push(store);
  return { store, root, sessionsDir };
}

describe('importCodex() of a forked sub-agent', () => {
  const copies = [
    {
      name: 'unfiltered copy with the marker output',
      copy: unfilteredCopy,
      lines: unfilteredCopy.length,
    },
    { name: 'filtered copy', copy: filteredCopy, lines: filteredCopy.length },
  ];
  for (const { name, copy, lines } of copies) {
    it(`shows only the child's own part and links both ways (${name})`, async () => {
      const { store, root } = await sandbox({
        'rollout-2026-03-02T09-00-00-a.jsonl': parent,
        'rollout-2026-03-02T09-00-05-b.jsonl': [childMeta, ...copy, ...childOwn],
      });
      const warnings: string[] = [];
      const summary = await importCodex(store, root, { onWarning: (w) => warnings.push(w) });
      expect(summary.failed).toEqual([]);
      expect(warnings).toEqual([]);
      const parentSession = `codex-${parentId}`;
      const childSession = `codex-${childId}`;
      expect(
        cardsByCallId(await allEvents(await store.open(parentSession))).get('call_spawn')?.link,
      ).toEqual({
        sessionId: childSession,
        label: "Open the sub-agent's session",
      });
      const child = await store.open(childSession);
      expect(child.header).toMatchObject({
        parentId: parentSession,
        title: 'Codex sub-agent Euclid: Check the lexer tests',
      });
      const events = await allEvents(child);
      const first = events[0]?.payload;
      expect(first?.case).toBe('contextMessage');
      if (first?.case !== 'contextMessage') return;
      expect(JSON.parse(first.value.metaJson)).toEqual({
        sessionId: parentSession,
        callId: 'call_spawn',
        forkedLines: lines,
      });
      const prompts = events.flatMap((e) =>
        e.payload.case === 'userMessage'
          ? [
              e.payload.value.content
                .map((b) => (b.block.case === 'text' ? b.block.value.text : ''))
                .join(''),
            ]
          : [],
      );
      expect(prompts).toEqual(['Check the lexer tests']);
      expect(
        events.some((e) => e.payload.case === 'toolCall' && e.payload.value.callId === 'call_ls'),
      ).toBe(false);

      // Re-importing adds nothing.
      const again = await importCodex(store, root);
      expect(again.events).toBe(0);
      expect((await store.open(childSession)).length).toBe(events.length);
    });
  }

  it('shows the whole copy, with a warning, when no end is marked', async () => {
    const { store, root } = await sandbox({
      'rollout-2026-03-02T09-00-00-a.jsonl': parent,
      'rollout-2026-03-02T09-00-05-b.jsonl': [childMeta, ...parentHead, ...childOwn],
    });
    const warnings: string[] = [];
    await importCodex(store, root, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([
      expect.stringContaining('has no end Codex marks; showing all of it'),
    ]);
    const events = await allEvents(await store.open(`codex-${childId}`));
    const prompts = events.filter((e) => e.payload.case === 'userMessage');
    expect(prompts).toHaveLength(3);
  });

  it('imports the child live, in chunks that cut the copy and lines, as a one-time import does', async () => {
    const childLines = [childMeta, ...unfilteredCopy, ...childOwn];
    const text = childLines.map((l) => `${JSON.stringify(l)}\n`).join('');
    const once = await sandbox({
      'rollout-2026-03-02T09-00-00-a.jsonl': parent,
      'rollout-2026-03-02T09-00-05-b.jsonl': childLines,
    });
    await importCodex(once.store, once.root);
    const expected = rendition(await allEvents(await once.store.open(`codex-${childId}`)));

    const live = await sandbox({ 'rollout-2026-03-02T09-00-00-a.jsonl': parent });
    await importCodex(live.store, live.root);
    const path = join(live.sessionsDir, 'rollout-2026-03-02T09-00-05-b.jsonl');
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length;) {
      const next = Math.min(bytes.length, at + 97 + (at % 301));
      await writeFile(path, bytes.subarray(0, next));
      await importRollout(live.store, path, { flush: 'pass' });
      at = next;
    }
    await importRollout(live.store, path, { flush: 'final' });
    expect(await readFile(path, 'utf8')).toBe(text);
    expect(rendition(await allEvents(await live.store.open(`codex-${childId}`)))).toEqual(expected);
  });
});
