import { describe, expect, it } from 'vitest';
import { parsePatch, translateCodexCall, translateCodexOutput } from '../src/index.js';

const patch = [
  '*** Begin Patch',
  '*** Update File: src/a.ts',
  '@@',
  ' keep',
  '-old',
  '+new',
  '*** End Patch',
].join('\n');

describe('translateCodexCall()', () => {
  it.each([
    [
      'shell through bash -lc',
      'shell',
      { command: ['bash', '-lc', 'rg x'], workdir: '/w', timeout_ms: 5 },
      'bash',
      { command: 'rg x', workdir: '/w', timeout_ms: 5 },
    ],
    ['shell argv', 'shell', { command: ['ls', '-la', 'a b'] }, 'bash', { command: "ls -la 'a b'" }],
    [
      'exec_command',
      'exec_command',
      { cmd: 'npm test', workdir: '/w', yield_time_ms: 10 },
      'bash',
      { command: 'npm test', workdir: '/w' },
    ],
    [
      'write_stdin',
      'write_stdin',
      { session_id: 7, chars: 'q\n' },
      'terminal_send',
      { session: '7', input: 'q\n' },
    ],
    [
      'update_plan',
      'update_plan',
      { plan: [{ step: 'a', status: 'in_progress' }], explanation: 'why' },
      'todo_write',
      { todos: [{ content: 'a', status: 'in_progress' }], explanation: 'why' },
    ],
    [
      'apply_patch heredoc through shell',
      'shell',
      { command: ['bash', '-lc', `apply_patch <<'PATCH'\n${patch}\nPATCH`] },
      'edit',
      { file_path: 'src/a.ts', old_string: 'keep\nold\n', new_string: 'keep\nnew\n' },
    ],
    [
      'apply_patch adding a file',
      'apply_patch',
      { input: '*** Begin Patch\n*** Add File: n.md\n+hi\n*** End Patch' },
      'write',
      { file_path: 'n.md', content: 'hi\n' },
    ],
    ['an MCP tool', 'mcp__s__t', { a: 1 }, 'mcp__s__t', { a: 1 }],
  ])('%s', (_name, name, args, dshName, dshArgs) => {
    const call = translateCodexCall(name, JSON.stringify(args));
    expect({ name: call.name, args: JSON.parse(call.args) as unknown }).toEqual({
      name: dshName,
      args: dshArgs,
    });
  });

  it('keeps a custom apply_patch call that touches several files under its own name', () => {
    const two = `${patch.replace('*** End Patch', '')}*** Delete File: b.ts\n*** End Patch`;
    expect(translateCodexCall('apply_patch', two)).toMatchObject({
      name: 'apply_patch',
      args: two,
    });
  });

  it('keeps arguments that are not JSON as they are', () => {
    expect(translateCodexCall('exec_command', '[redacted]')).toMatchObject({
      name: 'exec_command',
      args: '[redacted]',
    });
  });
});

describe('translateCodexOutput()', () => {
  const shell = translateCodexCall('shell', JSON.stringify({ command: ['ls'] }));
  const exec = translateCodexCall('exec_command', JSON.stringify({ cmd: 'ls' }));
  it.each([
    [
      'shell JSON output',
      shell,
      JSON.stringify({ output: 'a\n', metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      { text: 'a\n[exit code: 0]', isError: false },
    ],
    [
      'shell failing command',
      shell,
      JSON.stringify({ output: 'no', metadata: { exit_code: 2 } }),
      { text: 'no\n[exit code: 2]', isError: false },
    ],
    [
      'sandbox refusal',
      shell,
      'failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: x',
      { isError: true, error: { code: 'denied' } },
    ],
    [
      'exec_command output',
      exec,
      'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nboom\n',
      { text: 'boom\n[exit code: 1]' },
    ],
    [
      'exec_command still running',
      exec,
      'Chunk ID: 1\nWall time: 1 seconds\nProcess running with session ID 4\nOriginal token count: 3\nOutput:\nwait',
      { text: 'wait' },
    ],
    [
      'patch applied',
      translateCodexCall('apply_patch', patch),
      'Success. Updated the following files:\nM src/a.ts\n',
      {
        isError: false,
        meta: {
          diffs: [
            {
              path: 'src/a.ts',
              oldText: 'keep\nold\n',
              newText: 'keep\nnew\n',
              hunks: [
                {
                  oldStart: 1,
                  oldLines: 2,
                  newStart: 1,
                  newLines: 2,
                  lines: [' keep', '-old', '+new'],
                },
              ],
            },
          ],
        },
      },
    ],
    [
      'patch refused',
      translateCodexCall('apply_patch', patch),
      'Failed to find expected lines in src/a.ts',
      { isError: true, meta: undefined },
    ],
  ])('%s', (_name, call, output, expected) => {
    expect(translateCodexOutput(call, output)).toMatchObject(expected);
  });
});

describe('parsePatch()', () => {
  it.each([
    ['not a patch', 'hello', undefined],
    [
      'a move with two chunks',
      '*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@ f()\n-x\n+y\n@@\n-z\n*** End Patch',
      [
        {
          kind: 'update',
          path: 'a',
          moveTo: 'b',
          chunks: [
            { old: 'x\n', new: 'y\n' },
            { old: 'z\n', new: '' },
          ],
        },
      ],
    ],
    [
      'a deletion',
      '*** Begin Patch\n*** Delete File: a\n*** End Patch',
      [{ kind: 'delete', path: 'a' }],
    ],
  ])('%s', (_name, text, expected) => {
    expect(parsePatch(text)).toEqual(expected);
  });
});
