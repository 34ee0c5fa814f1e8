import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { contextView, createConversation, flattenContent } from '@dsh/card-models';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { afterEach, describe, expect, it } from 'vitest';
import { importCodex } from '../src/index.js';
import { allEvents, cardsByCallId, writeRollouts } from './import-test-kit.js';

const dirs: string[] = [];
const stores: FileJournalStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A fresh store and a sessions dir holding `files` (name -> rollout lines). */
async function sandbox(files: Record<string, readonly object[]>) {
  const { dir, root } = await writeRollouts(files, '2026/02/23');
  dirs.push(dir);
  const store = await createJournalStore({ dataDir: join(dir, 'sessions') });
  stores.push(store);
  return { store, root };
}

let clock = Date.parse('2026-02-23T12:00:00Z');
const line = (type: string, payload: object) => ({
  timestamp: new Date((clock += 1000)).toISOString(),
  type,
  payload,
});
const meta = (id: string, extra: object = {}) =>
  line('session_meta', { id, cwd: '/w', cli_version: '0.104.0', ...extra });
const prompt = (message: string) => [
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: message }],
  }),
  line('event_msg', { type: 'user_message', message, images: [] }),
];
const call = (id: string, name: string, args: object) =>
  line('response_item', {
    type: 'function_call',
    call_id: id,
    name,
    arguments: JSON.stringify(args),
  });
const customCall = (id: string, name: string, input: string) =>
  line('response_item', { type: 'custom_tool_call', call_id: id, name, input });
const output = (id: string, text: string, custom = false) =>
  line('response_item', {
    type: custom ? 'custom_tool_call_output' : 'function_call_output',
    call_id: id,
    output: text,
  });
const done = () => line('event_msg', { type: 'task_complete' });

const parentId = '019c0000-0000-7000-8000-00000000000a';
const childId = '019c0000-0000-7000-8000-00000000000b';

const parent = [
  meta(parentId),
  ...prompt('Review the parser'),
  call('call_spawn', 'spawn_agent', {
    agent_type: 'explorer',
    message: 'Map the parser files\nthen report',
  }),
  line('event_msg', {
    type: 'collab_agent_spawn_begin',
    call_id: 'call_spawn',
    sender_thread_id: parentId,
  }),
  line('event_msg', {
    type: 'collab_agent_spawn_end',
    call_id: 'call_spawn',
    sender_thread_id: parentId,
    new_thread_id: childId,
    new_agent_nickname: 'Parfit',
    status: 'running',
  }),
  output('call_spawn', JSON.stringify({ agent_id: childId, nickname: 'Parfit' })),
  call('call_wait', 'wait', { ids: [childId] }),
  line('event_msg', { type: 'collab_waiting_begin', call_id: 'call_wait' }),
  line('event_msg', { type: 'collab_waiting_end', call_id: 'call_wait', statuses: {} }),
  output('call_wait', 'done'),
  done(),
];

const child = [
  meta(childId, {
    agent_nickname: 'Parfit',
    agent_role: 'explorer',
    source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } },
  }),
  // A forked sub-agent repeats its parent's session_meta; the first one names the rollout.
  meta(parentId, { cwd: '/elsewhere' }),
  ...prompt('Map the parser files\nthen report'),
  line('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Three files.' }],
  }),
  done(),
];

describe('importCodex() of sub-agent rollouts', () => {
  it('links the spawn_agent call to the child session and the child back to the call', async () => {
    // The child's file sorts first: it waits until its parent is imported.
    const { store, root } = await sandbox({
      'rollout-2026-02-23T12-00-00-a.jsonl': child,
      'rollout-2026-02-23T12-00-01-b.jsonl': parent,
    });
    const summary = await importCodex(store, root);
    expect(summary.failed).toEqual([]);
    const parentSession = `codex-${parentId}`;
    const childSession = `codex-${childId}`;
    expect(new Set(summary.sessions)).toEqual(new Set([parentSession, childSession]));

    const parentEvents = await allEvents(await store.open(parentSession));
    expect(parentEvents.filter((e) => e.payload.case === 'extension')).toEqual([]);
    expect(cardsByCallId(parentEvents).get('call_spawn')?.link).toEqual({
      sessionId: childSession,
      label: "Open the sub-agent's session",
    });

    const childJournal = await store.open(childSession);
    expect(childJournal.header).toMatchObject({
      parentId: parentSession,
      cwd: '/w',
      title: 'Codex sub-agent Parfit: Map the parser files',
    });
    const nodes = createConversation().apply({
      kind: 'replace',
      events: await allEvents(childJournal),
    }).nodes;
    const first = nodes[0];
    expect(first?.kind).toBe('context');
    if (first?.kind !== 'context') return;
    expect(contextView(first)).toMatchObject({
      label: 'Sub-agent',
      text: `Sub-agent Parfit (explorer) started by the spawn_agent call "Map the parser files" in session ${parentSession}`,
      link: { sessionId: parentSession, label: 'Open the parent session' },
    });
    expect(JSON.parse(first.metaJson)).toEqual({ sessionId: parentSession, callId: 'call_spawn' });
  });

  it('imports a sub-agent whose parent is not there as a root session, with a warning', async () => {
    const { store, root } = await sandbox({ 'rollout-2026-02-23T12-00-00-a.jsonl': child });
    const warnings: string[] = [];
    const summary = await importCodex(store, root, { onWarning: (w) => warnings.push(w) });
    expect(summary.sessions).toEqual([`codex-${childId}`]);
    expect((await store.open(`codex-${childId}`)).header.parentId ?? '').toBe('');
    expect(warnings).toEqual([
      expect.stringContaining(`parent session codex-${parentId} is not imported`),
    ]);
  });
});

describe('importCodex() of a patch touching several files', () => {
  const patch = [
    '*** Begin Patch',
    '*** Add File: docs/new.md',
    '+# New',
    '*** Update File: src/a.ts',
    '@@',
    ' keep',
    '-old',
    '+new',
    '*** Delete File: src/gone.ts',
    '*** End Patch',
  ].join('\n');
  const rollout = (text: string) => [
    meta('019c0000-0000-7000-8000-00000000000c'),
    ...prompt('Patch three files'),
    customCall('call_patch', 'apply_patch', patch),
    output('call_patch', text, true),
    done(),
  ];

  it.each([
    [
      'applied',
      '{"output":"Success. Updated the following files:\\nA docs/new.md\\nM src/a.ts\\nD src/gone.ts\\n","metadata":{"exit_code":0}}',
      [
        ['call_patch#1', 'write', 'diff', 'ok'],
        ['call_patch#2', 'edit', 'diff', 'ok'],
        ['call_patch#3', 'apply_patch', 'generic', 'ok'],
      ],
    ],
    [
      'refused',
      'Failed to find expected lines in src/a.ts',
      [
        ['call_patch#1', 'write', 'generic', 'error'],
        ['call_patch#2', 'edit', 'generic', 'error'],
        ['call_patch#3', 'apply_patch', 'generic', 'error'],
      ],
    ],
  ])('shows one card per file when the patch is %s', async (_name, text, expected) => {
    const { store, root } = await sandbox({ 'rollout-2026-02-23T12-00-00-c.jsonl': rollout(text) });
    const [id] = (await importCodex(store, root)).sessions;
    const events = await allEvents(await store.open(id!));
    const cards = [...cardsByCallId(events)].map(([callId, card]) => [
      callId,
      card.row.tool,
      card.body.kind,
      card.status.state,
    ]);
    expect(cards).toEqual(expected);
    const diff = cardsByCallId(events).get('call_patch#2')?.body;
    if (text.includes('Success')) {
      expect(diff).toMatchObject({ kind: 'diff', path: 'src/a.ts', added: 1, removed: 1 });
    }
  });
});

describe('importCodex() of a prompt from an editor extension', () => {
  it('shows the IDE context as a context row and the request as the prompt', async () => {
    const message = [
      '# Context from my IDE setup:',
      '',
      '## Open tabs:',
      '- a.ts: src/a.ts',
      '',
      '## My request for Codex:',
      'Fix the parser',
      'and its tests',
    ].join('\n');
    const { store, root } = await sandbox({
      'rollout-2026-02-23T12-00-00-d.jsonl': [
        meta('019c0000-0000-7000-8000-00000000000d'),
        ...prompt(message),
        done(),
      ],
    });
    const [id] = (await importCodex(store, root)).sessions;
    const journal = await store.open(id!);
    expect(journal.header.title).toBe('Codex: Fix the parser');
    const nodes = createConversation().apply({
      kind: 'replace',
      events: await allEvents(journal),
    }).nodes;
    const shown = nodes.flatMap((node) => {
      if (node.kind === 'context') return [['context', contextView(node).text]];
      if (node.kind === 'user') return [['user', flattenContent(node.content)]];
      return [];
    });
    expect(shown).toEqual([
      ['context', '# Context from my IDE setup:\n\n## Open tabs:\n- a.ts: src/a.ts'],
      ['user', 'Fix the parser\nand its tests'],
    ]);
  });
});
