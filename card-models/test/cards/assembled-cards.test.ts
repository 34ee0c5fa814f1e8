import {
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  TurnEndReason,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import {
  createCardCache,
  createConversation,
  type ConversationSnapshot,
  type ToolCallBlock,
} from '../../src/index.js';
import { backgroundAck, exitMarker, interruptedMessage } from '../../src/contract/index.js';

const facts = { cwd: '/home/ada/project', home: '/home/ada' };

function snapshotOf(payloads: Payload[]): ConversationSnapshot {
  const conversation = createConversation();
  return conversation.apply({ kind: 'replace', events: events(payloads) });
}

function toolBlocks(snapshot: ConversationSnapshot): ToolCallBlock[] {
  const blocks: ToolCallBlock[] = [];
  for (const node of snapshot.nodes) {
    if (node.kind === 'tool-result') blocks.push(node.tool);
    if (node.kind === 'assistant') {
      for (const block of node.blocks) if (block.kind === 'tool-call') blocks.push(block.tool);
    }
  }
  return blocks;
}

function call(id: string, name: string, args: unknown): Payload[] {
  return [assistantMessage({ turn: 1 }, [toolCallBlock(id, name, args)]), toolCall(id, name, args)];
}

describe('deriveCard() on assembled conversations', () => {
  it('derives the cards of a replayed session', () => {
    const snapshot = snapshotOf([
      turnStart(1),
      ...call('c1', 'bash', { command: 'ls', description: 'List' }),
      toolResult('c1', `a.ts\n${exitMarker(0)}`),
      ...call('c2', 'bash', { command: 'npm run dev', background: true }),
      toolResult('c2', backgroundAck({ jobId: 'j1', pid: 9, outputPath: '/tmp/j1' })),
      ...call('c3', 'run_code', {
        code: 'await tools.bash({command: "pwd"})',
        description: 'Probe',
      }),
      codeDispatchStart('c3', 'c3.1', 'bash', { command: 'pwd' }),
      codeDispatch('c3', 'c3.1', `/home/ada/project\n${exitMarker(0)}`),
      codeDispatchStart('c3', 'c3.2', 'read', { file_path: 'a.ts' }),
      codeDispatch('c3', 'c3.2', 'x'),
      toolResult('c3', 'done'),
      toolResult('orphan-1', 'lost output'),
      ...call('c4', 'bash', { command: 'sleep 100' }),
      turnEnd(1, TurnEndReason.CANCELLED),
    ]);
    const cache = createCardCache();
    const cards = toolBlocks(snapshot).map((block) => cache.card(block, facts));
    const view = cards.map((card) => ({
      title: card.row.title,
      state: card.row.state,
      body: card.body.kind,
      subCalls: card.subCalls.map((sub) => `${sub.row.title}:${sub.body.kind}`),
    }));
    expect(view).toEqual([
      { title: 'Bash', state: 'ok', body: 'terminal', subCalls: [] },
      { title: 'Bash', state: 'ok', body: 'terminal', subCalls: [] },
      { title: 'Code', state: 'ok', body: 'code', subCalls: ['Bash:terminal', 'Read:generic'] },
      { title: 'orphan-1', state: 'ok', body: 'generic', subCalls: [] },
      { title: 'Bash', state: 'stopped', body: 'generic', subCalls: [] },
    ]);
    expect(cards[4]?.row.errorText).toBe(interruptedMessage);
  });

  it('keeps card identity across an append that leaves a block unchanged', () => {
    const conversation = createConversation();
    const first = events([
      turnStart(1),
      ...call('c1', 'bash', { command: 'ls' }),
      toolResult('c1', exitMarker(0)),
      ...call('c2', 'bash', { command: 'pwd' }),
    ]);
    const before = conversation.apply({ kind: 'replace', events: first });
    const cache = createCardCache();
    const [settled, running] = toolBlocks(before).map((block) => cache.card(block, facts));
    const after = conversation.apply({
      kind: 'append',
      events: events([toolResult('c2', `/x\n${exitMarker(0)}`)], first.length),
    });
    const [settledAgain, runningAgain] = toolBlocks(after).map((block) => cache.card(block, facts));
    expect(settledAgain).toBe(settled);
    expect(runningAgain).not.toBe(running);
    expect(runningAgain?.body).toMatchObject({ kind: 'terminal', state: 'ok', output: '/x' });
    expect(cache.derivations).toBe(3);
  });
});
