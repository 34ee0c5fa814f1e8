import { createConversation, type LiveOutput } from '@dsh/card-models';
import {
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  extension,
  toolCall,
  toolCallBlock,
  toolOutput,
  toolResult,
  turnEnd,
  TurnEndReason,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assemble, assembleLive, assemblePaged, findTool } from './conversation-helpers.js';

const t1 = { turn: 1 };
const ask = (id: string, name = 'bash') =>
  assistantMessage(t1, [toolCallBlock(id, name, { command: 'make' })]);
const call = (id: string) => toolCall(id, 'bash', { command: 'make' });

/** The live text of a block: its first `count` chunks joined. */
function liveText(live: LiveOutput | undefined): string | undefined {
  return live === undefined ? undefined : live.chunks.slice(0, live.count).join('');
}

describe('createConversation() live output', () => {
  it.each<{ name: string; payloads: Payload[]; live: string | undefined; truncated?: boolean }>([
    {
      name: 'deltas join in seq order',
      payloads: [ask('c1'), call('c1'), toolOutput('c1', 'line 1\n'), toolOutput('c1', 'line 2\n')],
      live: 'line 1\nline 2\n',
    },
    { name: 'no delta yet', payloads: [ask('c1'), call('c1')], live: undefined },
    {
      name: 'an empty delta adds nothing',
      payloads: [ask('c1'), call('c1'), toolOutput('c1', '')],
      live: undefined,
    },
    {
      name: 'the budget delta ends live output',
      payloads: [
        ask('c1'),
        call('c1'),
        toolOutput('c1', 'a'),
        toolOutput('c1', 'b', { truncated: true }),
        toolOutput('c1', 'late'),
      ],
      live: 'ab',
      truncated: true,
    },
    {
      name: 'the result replaces live output',
      payloads: [
        ask('c1'),
        call('c1'),
        toolOutput('c1', 'a'),
        toolResult('c1', 'a\n[exit code: 0]'),
      ],
      live: undefined,
    },
    {
      name: 'deltas after the result are ignored',
      payloads: [ask('c1'), call('c1'), toolResult('c1', 'done'), toolOutput('c1', 'late')],
      live: undefined,
    },
    {
      name: 'a cancelled turn stops the call and drops its live output',
      payloads: [
        ask('c1'),
        call('c1'),
        toolOutput('c1', 'a'),
        turnEnd(1, TurnEndReason.CANCELLED),
        toolOutput('c1', 'b'),
      ],
      live: undefined,
    },
  ])('$name', ({ payloads, live, truncated }) => {
    const tool = findTool(assemble(payloads), 'c1');
    expect(liveText(tool?.live)).toBe(live);
    if (truncated !== undefined) expect(tool?.live?.truncated).toBe(truncated);
  });

  it('never attaches a delta to another call, and ignores unknown ids and missing heads', () => {
    const snapshot = assemble([
      toolOutput('c0', 'before its head'),
      ask('c1'),
      ask('c2'),
      call('c1'),
      call('c2'),
      toolOutput('c2', 'two'),
      toolOutput('nobody', 'lost'),
      toolOutput('', 'no id'),
      extension('tool/output', { callId: 'c1', text: 42 }),
    ]);
    expect(findTool(snapshot, 'c1')?.live).toBeUndefined();
    expect(liveText(findTool(snapshot, 'c2')?.live)).toBe('two');
    expect(snapshot.nodes.at(-1)).toMatchObject({ kind: 'unknown', type: 'tool/output' });
  });

  it('ignores deltas of a call whose head is before the window, and takes them once paged in', () => {
    const list = events([ask('c1'), call('c1'), toolOutput('c1', 'a'), toolOutput('c1', 'b')]);
    const conversation = createConversation();
    const tail = conversation.apply({ kind: 'replace', events: list.slice(2) });
    expect(findTool(tail, 'c1')).toBeUndefined();
    expect(tail.nodes).toEqual([]);
    const full = conversation.apply({ kind: 'prepend', events: list.slice(0, 2) });
    expect(liveText(findTool(full, 'c1')?.live)).toBe('ab');
  });

  it('attaches sub-call deltas to the sub-call, not to its run_code parent', () => {
    const snapshot = assemble([
      assistantMessage(t1, [toolCallBlock('code', 'run_code', { code: '', description: 'd' })]),
      toolCall('code', 'run_code', { code: '', description: 'd' }),
      codeDispatchStart('code', 'code.1', 'bash', { command: 'ls' }),
      toolOutput('code.1', 'file\n'),
    ]);
    expect(findTool(snapshot, 'code')?.live).toBeUndefined();
    expect(liveText(findTool(snapshot, 'code.1')?.live)).toBe('file\n');
    const settled = assemble([
      assistantMessage(t1, [toolCallBlock('code', 'run_code', { code: '', description: 'd' })]),
      toolCall('code', 'run_code', { code: '', description: 'd' }),
      codeDispatchStart('code', 'code.1', 'bash', { command: 'ls' }),
      toolOutput('code.1', 'file\n'),
      codeDispatch('code', 'code.1', 'file\n[exit code: 0]'),
    ]);
    expect(findTool(settled, 'code.1')?.live).toBeUndefined();
  });

  it('shares one chunk array across versions, so a delta costs O(1)', () => {
    const list = events([ask('c1'), call('c1'), toolOutput('c1', 'a'), toolOutput('c1', 'b')]);
    const conversation = createConversation();
    conversation.apply({ kind: 'append', events: list.slice(0, 3) });
    const first = findTool(conversation.snapshot, 'c1')?.live;
    conversation.apply({ kind: 'append', events: list.slice(3) });
    const second = findTool(conversation.snapshot, 'c1')?.live;
    expect(first?.chunks).toBe(second?.chunks);
    expect([first?.count, second?.count]).toEqual([1, 2]);
    expect(liveText(first)).toBe('a');
    expect(second).toMatchObject({ length: 2, seq: 3, truncated: false });
    expect(conversation.snapshot.runningCalls[0]?.live).toBe(second);
  });

  it('keeps the block and its chunk array across a prepend that changes nothing for it', () => {
    const list = events([
      ask('c0'),
      call('c0'),
      toolResult('c0', 'x'),
      ask('c1'),
      call('c1'),
      toolOutput('c1', 'a'),
    ]);
    const conversation = createConversation();
    const tail = conversation.apply({ kind: 'replace', events: list.slice(3) });
    const before = findTool(tail, 'c1');
    const full = conversation.apply({ kind: 'prepend', events: list.slice(0, 3) });
    expect(findTool(full, 'c1')).toBe(before);
    conversation.apply({ kind: 'append', events: events([toolOutput('c1', 'b')], 6) });
    const after = findTool(conversation.snapshot, 'c1')?.live;
    expect(after?.chunks).toBe(before?.live?.chunks);
    expect(liveText(after)).toBe('ab');
  });

  it('gives the same snapshot live, replayed and paged', () => {
    const list = events([
      ask('c1'),
      call('c1'),
      ...Array.from({ length: 20 }, (_, i) => toolOutput('c1', `line ${i}\n`)),
      ask('c2'),
    ]);
    const replayed = createConversation().apply({ kind: 'replace', events: list });
    for (const snapshot of [assembleLive(list), assemblePaged(list, 3)]) {
      expect(liveText(findTool(snapshot, 'c1')?.live)).toBe(
        liveText(findTool(replayed, 'c1')?.live),
      );
      expect(findTool(snapshot, 'c1')?.live?.seq).toBe(21);
    }
  });
});
