import { create } from '@bufbuild/protobuf';
import { ToolErrorSchema } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { contextView } from '../../src/cards/context-view.js';
import { deriveCard } from '../../src/cards/derive-card.js';
import { mcpToolName, rendererName } from '../../src/cards/imported-tools.js';
import { errorCodes } from '../../src/contract/markers.js';
import type { ConversationNode, ToolCallBlock } from '../../src/conversation/types.js';
import { posix, text, toolBlock } from './tool-block.js';

/** The block with its result's structured error set to `code`. */
function failing(block: ToolCallBlock, code: string): ToolCallBlock {
  const error = create(ToolErrorSchema, { name: 'Error', code, message: `${code} message` });
  return { ...block, status: 'error', result: { ...block.result!, isError: true, error } };
}

describe('rendererName()', () => {
  it.each([
    ['LS', 'glob'],
    ['BashOutput', 'bash'],
    ['TaskOutput', 'bash'],
    ['KillBash', 'bash'],
    ['KillShell', 'bash'],
    ['ExitPlanMode', 'plan'],
    ['Task', ''],
    ['bash', 'bash'],
    ['mcp__github__create_issue', 'mcp__github__create_issue'],
    ['toString', 'toString'],
  ])('%s is drawn by the %j renderer', (name, renderer) => {
    expect(rendererName(name)).toBe(renderer);
  });
});

describe('mcpToolName()', () => {
  it.each([
    ['mcp__github__create_issue', { server: 'github', tool: 'create_issue' }],
    ['mcp__n8n-mcp__n8n_health_check', { server: 'n8n-mcp', tool: 'n8n_health_check' }],
    ['mcp__a__b__c', { server: 'a', tool: 'b__c' }],
    ['mcp____tool', undefined],
    ['mcp__server__', undefined],
    ['github__create', undefined],
  ])('%s', (name, split) => {
    expect(mcpToolName(name)).toEqual(split);
  });
});

describe('deriveCard() of imported tools', () => {
  const card = (block: ToolCallBlock) => deriveCard(block, posix);

  it.each([
    ['LS', { path: '/home/ada/project/src' }, 'List', 'search'],
    ['BashOutput', { bash_id: 'bash_1' }, 'Job output', 'bash'],
    ['KillBash', { shell_id: 'bash_1' }, 'Stop job', 'bash'],
    ['Task', { description: 'Explore the code', prompt: 'Look' }, 'Agent', 'other'],
    ['ExitPlanMode', { plan: '# Plan' }, 'Plan', 'other'],
    ['mcp__github__create_issue', { title: 'Bug' }, 'github · create_issue', 'other'],
  ])('%s is titled %j', (name, args, title, kind) => {
    const row = card(toolBlock(name, args)).row;
    expect([row.title, row.kind]).toEqual([title, kind]);
  });

  it('lists an LS result as paths under the listed dir', () => {
    const meta = {
      shape: 'paths',
      paths: ['/home/ada/project/src/a.ts'],
      truncated: false,
      total: 1,
    };
    const body = card(
      toolBlock('LS', { path: '/home/ada/project/src' }, { result: { meta } }),
    ).body;
    expect(body).toMatchObject({
      kind: 'search',
      tool: 'ls',
      pattern: 'src',
      shape: 'paths',
      shown: 1,
    });
  });

  it('lists grep files with matches as paths and counts with each file', () => {
    const args = { pattern: 'TODO', output_mode: 'files_with_matches' };
    const paths = { shape: 'paths', paths: ['/home/ada/project/a.ts'], truncated: false, total: 1 };
    expect(card(toolBlock('grep', args, { result: { meta: paths } })).body).toMatchObject({
      kind: 'search',
      shape: 'paths',
      rows: [{ kind: 'file', displayPath: 'a.ts' }],
    });
    const counts = {
      shape: 'counts',
      files: [
        { path: '/home/ada/project/a.ts', count: 3 },
        { path: '/home/ada/project/b.ts', count: 1 },
      ],
      truncated: false,
      total: 4,
    };
    const body = card(toolBlock('grep', args, { result: { meta: counts } })).body;
    expect(body).toMatchObject({ kind: 'search', shape: 'paths', total: 2, shown: 2 });
    expect(body.kind === 'search' && body.state === 'ok' && body.rows).toEqual([
      { kind: 'file', path: '/home/ada/project/a.ts', displayPath: 'a.ts (3)', count: 3 },
      { kind: 'file', path: '/home/ada/project/b.ts', displayPath: 'b.ts (1)', count: 1 },
    ]);
    const bad = { ...counts, files: [{ path: 'a.ts', count: -1 }] };
    expect(card(toolBlock('grep', args, { result: { meta: bad } })).body.kind).toBe('generic');
  });

  it('shows the replacements of an edit list while running, the applied hunks once settled', () => {
    const args = {
      file_path: '/home/ada/project/a.ts',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd', replace_all: true },
      ],
    };
    expect(card(toolBlock('edit', args)).body).toMatchObject({
      kind: 'diff',
      source: 'arguments',
      added: 2,
      removed: 2,
    });
    const diffs = [
      {
        path: '/home/ada/project/a.ts',
        oldText: 'a\nc\n',
        newText: 'b\nd\n',
        hunks: [
          { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-a', '-c', '+b', '+d'] },
        ],
      },
    ];
    expect(card(toolBlock('edit', args, { result: { meta: { diffs } } })).body).toMatchObject({
      kind: 'diff',
      source: 'applied',
      lineNumbersInFile: true,
    });
    expect(card(toolBlock('edit', { ...args, edits: [{ old_string: 1 }] })).body.kind).toBe(
      'generic',
    );
    expect(card(toolBlock('edit', { ...args, edits: [] })).body.kind).toBe('generic');
  });

  it('draws a read of a background job as a terminal with the job command and exit code', () => {
    const meta = {
      job: {
        id: 'bash_1',
        command: 'npm run dev',
        status: 'completed',
        exitCode: 2,
        output: 'boom',
      },
    };
    const body = card(
      toolBlock('BashOutput', { bash_id: 'bash_1' }, { result: { meta, content: '<status>' } }),
    );
    expect(body.body).toMatchObject({
      kind: 'terminal',
      command: 'npm run dev',
      output: 'boom',
      ending: { kind: 'exit', code: 2 },
      description: 'Output of background job bash_1',
    });
    expect(body.status.label).toBe('failed');
    const running = card(
      toolBlock(
        'BashOutput',
        { bash_id: 'bash_1' },
        { result: { meta: { job: { id: 'bash_1', status: 'running' } } } },
      ),
    );
    expect(running.body).toMatchObject({
      kind: 'terminal',
      command: 'job bash_1',
      ending: undefined,
      description: 'Output of background job bash_1 (still running)',
    });
    expect(card(toolBlock('BashOutput', { bash_id: 'bash_1' }, { result: {} })).body.kind).toBe(
      'generic',
    );
    expect(card(toolBlock('BashOutput', {})).body.kind).toBe('generic');
    const stop = card(
      toolBlock(
        'KillBash',
        { shell_id: 'bash_1' },
        { result: { meta: { job: { id: 'bash_1', command: 'npm run dev' } }, content: 'killed' } },
      ),
    );
    expect(stop.body).toMatchObject({
      kind: 'terminal',
      command: 'npm run dev',
      output: 'killed',
      description: 'Stop background job bash_1',
    });
  });

  it('settles a background launch whose meta names its job', () => {
    const args = { command: 'npm run dev', background: true };
    const launched = toolBlock('bash', args, {
      result: {
        content: 'Command running in background with ID: bash_1',
        meta: { job: { id: 'bash_1' } },
      },
    });
    expect(card(launched).body).toMatchObject({ kind: 'terminal', background: true, state: 'ok' });
    const unknown = toolBlock('bash', args, {
      result: { content: 'Command running in background' },
    });
    expect(card(unknown).body.kind).toBe('generic');
  });

  it('keeps the output of a command that failed or timed out without an exit marker', () => {
    const block = toolBlock(
      'bash',
      { command: 'npm test' },
      { result: { content: 'lint error\nmore', isError: true } },
    );
    const failed = card(failing(block, errorCodes.commandFailed));
    expect(failed.body).toMatchObject({
      kind: 'terminal',
      state: 'error',
      output: 'lint error\nmore',
      ending: undefined,
    });
    expect(failed.status).toEqual({ state: 'error', label: 'failed' });
    const timedOut = card(failing(block, errorCodes.timeout));
    expect(timedOut.body).toMatchObject({ kind: 'terminal', timedOut: true });
    expect(timedOut.status.label).toBe('timed out');
    expect(card(failing(block, 'tool_error')).body.kind).toBe('generic');
  });

  it('shows a plan as Markdown and whether it was approved', () => {
    const plan = '# Plan\n\n1. Read\n2. Write';
    expect(card(toolBlock('ExitPlanMode', { plan })).body).toEqual({
      kind: 'plan',
      markdown: plan,
      path: undefined,
      state: 'proposed',
    });
    expect(
      card(toolBlock('ExitPlanMode', { plan }, { result: { content: 'approved' } })).body,
    ).toMatchObject({ state: 'approved' });
    const fromMeta = toolBlock(
      'ExitPlanMode',
      {},
      { result: { content: 'ok', meta: { plan: '# Saved', path: '/p.md' } } },
    );
    expect(card(fromMeta).body).toEqual({
      kind: 'plan',
      markdown: '# Saved',
      path: '/p.md',
      state: 'approved',
    });
    const refused = failing(
      toolBlock('ExitPlanMode', { plan }, { result: { content: 'no' } }),
      errorCodes.denied,
    );
    expect(card(refused).body).toMatchObject({ state: 'rejected' });
    expect(card(failing(refused, 'tool_error')).body.kind).toBe('generic');
    expect(card(toolBlock('ExitPlanMode', '{bad')).body.kind).toBe('generic');
  });

  it('links a call whose meta names its child session', () => {
    const task = toolBlock(
      'Task',
      { description: 'Explore' },
      { result: { content: 'report', meta: { childSessionId: 'cc-1-agent-a1' } } },
    );
    expect(card(task).link).toEqual({
      sessionId: 'cc-1-agent-a1',
      label: "Open the sub-agent's session",
    });
    expect(
      card(toolBlock('Task', {}, { result: { meta: { childSessionId: 7 } } })).link,
    ).toBeUndefined();
    expect(
      card(toolBlock('Task', {}, { result: { meta: '{"childSessionId' } })).link,
    ).toBeUndefined();
    expect(card(toolBlock('Task', {})).link).toBeUndefined();
  });
});

describe('contextView()', () => {
  const node = (envelope: string, body: string, metaJson = '', source = 'claude-code') =>
    ({
      kind: 'context',
      seq: 1,
      time: undefined,
      content: [text(body)],
      source,
      envelope,
      metaJson,
    }) as Extract<ConversationNode, { kind: 'context' }>;

  it.each([
    [
      'claude-code/turn-notes',
      'Claude Code: 3 hook runs\nA stop hook failed',
      'Hooks and bookkeeping',
      'Claude Code: 3 hook runs …',
    ],
    ['claude-code/compaction', 'Conversation compacted', 'Compaction', 'Conversation compacted'],
    ['environment', 'cwd: /x', 'Context · claude-code', 'cwd: /x'],
  ])('%s is labelled', (envelope, body, label, summary) => {
    expect(contextView(node(envelope, body))).toMatchObject({
      label,
      summary,
      text: body,
      link: undefined,
    });
  });

  it('links the session its meta names', () => {
    const view = contextView(
      node('claude-code/subagent', 'Sub-agent of', JSON.stringify({ sessionId: 'cc-1' })),
    );
    expect(view.link).toEqual({ sessionId: 'cc-1', label: 'Open the parent session' });
    expect(contextView(node('x', 'y', JSON.stringify({ sessionId: 'cc-2' }))).link).toEqual({
      sessionId: 'cc-2',
      label: 'Open the session',
    });
    expect(contextView(node('x', 'y', '{"sessionId":3}')).link).toBeUndefined();
    expect(contextView(node('x', 'y', 'not json')).link).toBeUndefined();
  });
});
