import { describe, expect, it } from 'vitest';
import { translateToolCall, translateToolResult, type OpenCall } from '../src/index.js';

describe('translateToolCall()', () => {
  it.each([
    [
      'Bash',
      { command: 'ls', description: 'list', timeout: 5000, run_in_background: true },
      'bash',
      { command: 'ls', description: 'list', timeout_ms: 5000, background: true },
    ],
    [
      'Read',
      { file_path: '/a', offset: 3, limit: 4 },
      'read',
      { file_path: '/a', offset: 3, limit: 4 },
    ],
    ['Write', { file_path: '/a', content: 'x' }, 'write', { file_path: '/a', content: 'x' }],
    [
      'Edit',
      { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true },
      'edit',
      { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true },
    ],
    [
      'Grep',
      {
        pattern: 'p',
        path: 'src',
        glob: '*.ts',
        '-i': true,
        head_limit: 9,
        output_mode: 'content',
      },
      'grep',
      {
        pattern: 'p',
        path: 'src',
        glob: '*.ts',
        ignore_case: true,
        max_results: 9,
        output_mode: 'content',
      },
    ],
    ['Glob', { pattern: '**/*', path: 'src' }, 'glob', { pattern: '**/*', path: 'src' }],
    [
      'TodoWrite',
      { todos: [{ content: 'a', status: 'pending', activeForm: 'A' }] },
      'todo_write',
      { todos: [{ content: 'a', status: 'pending', activeForm: 'A' }] },
    ],
    ['WebFetch', { url: 'https://x', prompt: 'p' }, 'web_fetch', { url: 'https://x', prompt: 'p' }],
    ['WebSearch', { query: 'q' }, 'web_search', { query: 'q' }],
    [
      'AskUserQuestion',
      { questions: [{ question: 'q?' }] },
      'ask_user',
      { questions: [{ question: 'q?' }] },
    ],
    ['MultiEdit', { file_path: '/a', edits: [] }, 'edit', { file_path: '/a', edits: [] }],
    ['Skill', { skill: 'pdf', args: 'x' }, 'skill', { name: 'pdf', args: 'x' }],
    ['LS', { path: '/a' }, 'LS', { path: '/a' }],
    ['mcp__srv__tool', { x: 1 }, 'mcp__srv__tool', { x: 1 }],
    ['Bash', 'not an object', 'Bash', 'not an object'],
  ])('%s %j -> %s', (name, input, expectedName, expectedArgs) => {
    const call = translateToolCall(name, input);
    expect(call.name).toBe(expectedName);
    expect(JSON.parse(call.arguments)).toEqual(expectedArgs);
  });
});

const at = { turn: 1, step: 0 };
const open = (name: string, args: unknown = {}): OpenCall => ({
  name,
  args: JSON.stringify(args),
  ...at,
});
const block = (content: unknown, isError?: boolean) => ({
  type: 'tool_result',
  tool_use_id: 'c1',
  content,
  ...(isError === undefined ? {} : { is_error: isError }),
});

function translated(
  call: OpenCall | undefined,
  content: unknown,
  toolUseResult: unknown,
  isError?: boolean,
) {
  const payload = translateToolResult(block(content, isError), call, toolUseResult, at);
  if (payload.case !== 'toolResult') throw new Error('expected a tool result');
  const { value } = payload;
  const text = value.content
    .map((b) => (b.block.case === 'text' ? b.block.value.text : `<${b.block.case}>`))
    .join('|');
  return {
    text,
    isError: value.isError,
    code: value.error?.code ?? '',
    meta: value.metaJson === '' ? undefined : (JSON.parse(value.metaJson) as unknown),
  };
}

describe('translateToolResult()', () => {
  it.each([
    [
      'bash exit 0',
      open('bash'),
      'out',
      { stdout: 'out', stderr: '', interrupted: false },
      undefined,
      { text: 'out\n[exit code: 0]', isError: false },
    ],
    [
      'bash empty exit 0',
      open('bash'),
      '',
      { stdout: '', stderr: '', interrupted: false },
      undefined,
      { text: '[exit code: 0]' },
    ],
    [
      'bash named exit code',
      open('bash'),
      'x',
      { stdout: 'x', returnCodeInterpretation: 'exit code 3 means retry' },
      undefined,
      { text: 'x\n[exit code: 3]' },
    ],
    [
      'bash unknown interpretation',
      open('bash'),
      'x',
      { stdout: 'x', returnCodeInterpretation: 'Something else' },
      undefined,
      { text: 'x' },
    ],
    ['bash without facts', open('bash'), 'x', undefined, undefined, { text: 'x' }],
    [
      'bash background launch',
      open('bash', { command: 'srv', background: true }),
      'Command running in background with ID: b1',
      { stdout: '', backgroundTaskId: 'b1' },
      undefined,
      { text: 'Command running in background with ID: b1' },
    ],
    [
      'bash error with exit code',
      open('bash'),
      'Exit code 7\nboom',
      'Error: Exit code 7\nboom',
      true,
      { text: 'boom\n[exit code: 7]', isError: true, code: 'tool_error' },
    ],
    [
      'bash timeout error',
      open('bash'),
      'Command timed out after 2m',
      'Error: timed out',
      true,
      { text: 'Command timed out after 2m', code: 'timeout' },
    ],
    [
      'bash interrupted',
      open('bash'),
      'partial',
      { stdout: 'partial', interrupted: true },
      undefined,
      { text: 'partial', isError: true, code: 'interrupted' },
    ],
    [
      'rejected call',
      open('edit'),
      "The user doesn't want to proceed with this tool use.",
      'User rejected tool use',
      true,
      { isError: true, code: 'denied' },
    ],
    [
      'declined question',
      open('ask_user'),
      "The user doesn't want to proceed with this tool use.",
      undefined,
      true,
      { code: 'cancelled' },
    ],
    [
      'tool_use_error',
      open('read'),
      '<tool_use_error>File does not exist.</tool_use_error>',
      'Error: File does not exist.',
      true,
      { code: 'tool_error', meta: undefined },
    ],
    [
      'read of an empty file',
      open('read'),
      '<system-reminder>empty</system-reminder>',
      {
        type: 'text',
        file: { filePath: '/e', content: '', numLines: 0, startLine: 1, totalLines: 0 },
      },
      undefined,
      {
        text: '<file path="/e" lines="0-0" total="0">\n</file>',
        meta: { path: '/e', offset: 0, lines: 0, totalLines: 0, lang: '' },
      },
    ],
    [
      'read of an image',
      open('read'),
      [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } }],
      { type: 'image', file: { base64: 'iVBORw0K' } },
      undefined,
      { text: '<image>', meta: undefined },
    ],
    [
      'grep single file rows',
      open('grep', { pattern: 'x', path: '/a.ts' }),
      '3:x = 1',
      { mode: 'content', content: '3:x = 1\n--\n4-context', numLines: 3 },
      undefined,
      {
        meta: {
          shape: 'matches',
          files: [{ path: '/a.ts', matches: [{ lineNumber: 3, line: 'x = 1' }] }],
          truncated: false,
          total: 1,
        },
      },
    ],
    [
      'grep count mode',
      open('grep'),
      'a.ts:3',
      { mode: 'count', content: 'a.ts:3' },
      undefined,
      {
        meta: { shape: 'counts', files: [{ path: 'a.ts', count: 3 }], truncated: false, total: 3 },
      },
    ],
    [
      'glob truncated',
      open('glob'),
      'a\nb',
      { filenames: ['a', 'b'], numFiles: 2, truncated: true },
      undefined,
      { meta: { shape: 'paths', paths: ['a', 'b'], truncated: true, total: 2 } },
    ],
    [
      'write overwrite',
      open('write', { file_path: '/w' }),
      'ok',
      {
        type: 'update',
        filePath: '/w',
        content: 'b\n',
        structuredPatch: [
          { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] },
        ],
      },
      undefined,
      {
        meta: {
          diffs: [
            {
              path: '/w',
              oldText: 'a\n',
              newText: 'b\n',
              hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }],
            },
          ],
        },
      },
    ],
    [
      'edit patch that does not add up',
      open('edit', { file_path: '/w' }),
      'ok',
      {
        filePath: '/w',
        originalFile: 'a',
        structuredPatch: [
          { oldStart: 1, oldLines: 5, newStart: 1, newLines: 1, lines: ['-a', '+b'] },
        ],
      },
      undefined,
      { meta: undefined },
    ],
    [
      'edit with no newline marker',
      open('edit', { file_path: '/w' }),
      'ok',
      {
        filePath: '/w',
        originalFile: 'a',
        structuredPatch: [
          {
            oldStart: 1,
            oldLines: 1,
            newStart: 1,
            newLines: 1,
            lines: ['-a', '\\ No newline at end of file', '+b', '\\ No newline at end of file'],
          },
        ],
      },
      undefined,
      {
        meta: {
          diffs: [
            {
              path: '/w',
              oldText: 'a',
              newText: 'b',
              hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] }],
            },
          ],
        },
      },
    ],
    [
      'web fetch without status',
      open('web_fetch', { url: 'https://x' }),
      'page',
      { durationMs: 3 },
      undefined,
      { meta: undefined },
    ],
    [
      'read from numbered text alone',
      open('read', { file_path: '/r.ts' }),
      '     4→a\n     5→b\n\n<system-reminder>note</system-reminder>',
      undefined,
      undefined,
      {
        text: '<file path="/r.ts" lines="4-5" total="5">\n     4\ta\n     5\tb\n</file>',
        meta: {
          path: '/r.ts',
          offset: 4,
          lines: 2,
          totalLines: 5,
          lang: 'typescript',
          note: '<system-reminder>note</system-reminder>',
        },
      },
    ],
    [
      'read text with a gap in its numbers',
      open('read', { file_path: '/r.ts' }),
      '     4→a\n     9→b',
      undefined,
      undefined,
      { text: '     4→a\n     9→b', meta: undefined },
    ],
    [
      'grep files listed in text alone',
      open('grep', { pattern: 'x' }),
      'Found 3 files\n/a.ts\n/b.ts',
      undefined,
      undefined,
      { meta: { shape: 'paths', paths: ['/a.ts', '/b.ts'], truncated: true, total: 3 } },
    ],
    [
      'grep no files in text alone',
      open('grep', { pattern: 'x' }),
      'No files found',
      undefined,
      undefined,
      { meta: { shape: 'paths', paths: [], truncated: false, total: 0 } },
    ],
    [
      'grep content with no matches in text alone',
      open('grep', { pattern: 'x', output_mode: 'content' }),
      'No matches found',
      undefined,
      undefined,
      { meta: { shape: 'matches', files: [], truncated: false, total: 0 } },
    ],
    [
      'glob in text alone',
      open('glob', { pattern: '*.ts' }),
      '/a.ts\n/b.ts\n(Results are truncated. Consider using a more specific path or pattern.)',
      undefined,
      undefined,
      { meta: { shape: 'paths', paths: ['/a.ts', '/b.ts'], truncated: true, total: 2 } },
    ],
    [
      'glob text that is not paths',
      open('glob', { pattern: '*.ts' }),
      'something odd',
      undefined,
      undefined,
      { meta: undefined },
    ],
    [
      'orphan result',
      undefined,
      'lonely',
      { stdout: 'lonely' },
      undefined,
      { text: 'lonely', meta: undefined },
    ],
  ])('%s', (_name, call, content, toolUseResult, isError, expected) => {
    expect(translated(call, content, toolUseResult, isError)).toMatchObject(expected);
  });
});
