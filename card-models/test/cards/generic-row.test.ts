import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { describe, expect, it } from 'vitest';
import { genericRow, summaryMaxLength, type GenericRow } from '../../src/cards/index.js';
import { failed, failedWithoutError, succeeded } from './card-blocks.js';
import { asStopped, asSubCall, posix, text, toolBlock, windows } from './tool-block.js';

const row = (name: string, args: unknown, facts = posix): GenericRow =>
  genericRow(toolBlock(name, args), facts);

describe('genericRow()', () => {
  const classes: [string, unknown, string, string][] = [
    ['bash', { command: 'ls' }, 'bash', 'Bash'],
    ['pwsh', { command: 'ls' }, 'bash', 'PowerShell'],
    ['terminal_send', { session: 's', input: 'q' }, 'bash', 'Terminal'],
    ['read', { file_path: 'a' }, 'read', 'Read'],
    ['write', { file_path: 'a', content: '' }, 'write', 'Write'],
    ['edit', { file_path: 'a' }, 'edit', 'Edit'],
    ['str_replace_editor', { command: 'view', path: 'a' }, 'read', 'View'],
    ['str_replace_editor', { command: 'create', path: 'a' }, 'write', 'Create'],
    ['str_replace_editor', { command: 'str_replace', path: 'a' }, 'edit', 'Edit'],
    ['str_replace_editor', { command: 'insert', path: 'a' }, 'edit', 'Insert'],
    ['str_replace_editor', { command: 'undo', path: 'a' }, 'edit', 'Editor'],
    ['grep', { pattern: 'x' }, 'search', 'Grep'],
    ['glob', { pattern: 'x' }, 'search', 'Glob'],
    ['web_search', { query: 'x' }, 'search', 'Web search'],
    ['web_fetch', { url: 'x' }, 'read', 'Fetch'],
    ['todo_write', { todos: [] }, 'other', 'Todos'],
    ['ask_user', { questions: [] }, 'other', 'Question'],
    ['skill', { name: 'x' }, 'other', 'Skill'],
    ['run_code', { code: '', description: '' }, 'code', 'Code'],
    ['my_tool', {}, 'other', 'my_tool'],
    ['constructor', {}, 'other', 'constructor'],
    ['__proto__', {}, 'other', '__proto__'],
  ];
  it.each(classes)('classifies %s %j as %s titled %s', (name, args, kind, title) => {
    expect(row(name, args)).toMatchObject({ kind, title, tool: name });
  });

  const long = 'y'.repeat(summaryMaxLength + 10);
  const summaries: [string, unknown, string][] = [
    ['description first', { description: 'Build it', command: 'make', file_path: 'a' }, 'Build it'],
    ['blank description skipped', { description: ' ', command: 'make' }, 'make'],
    ['then command', { command: 'make', file_path: 'a' }, 'make'],
    [
      'then file_path, cwd-relative',
      { file_path: '/home/ada/project/src/a.ts', pattern: 'x' },
      'src/a.ts',
    ],
    ['then path, home abbreviated', { path: '/home/ada/notes', pattern: 'x' }, '~/notes'],
    ['then pattern', { pattern: 'TODO', queries: ['a'] }, 'TODO'],
    ['then queries, comma-joined', { queries: ['a b', 'c', 3], url: 'u' }, 'a b, c'],
    ['then query', { query: 'rust async', url: 'u' }, 'rust async'],
    ['then url', { url: 'https://x.dev', other: 'z' }, 'https://x.dev'],
    ['then the first string argument', { n: 1, name: 'deploy', b: 'later' }, 'deploy'],
    ['no strings at all', { n: 1, list: [1] }, ''],
    ['first line only, marked', { command: 'set -e\nmake\nmake test' }, 'set -e …'],
    ['leading blank lines ignored', { command: '\n\n  ls  \n' }, 'ls'],
    ['truncated to one line', { command: long }, `${'y'.repeat(summaryMaxLength - 1)}…`],
    [
      'truncation keeps surrogate pairs whole',
      { command: '😀'.repeat(200) },
      `${'😀'.repeat(summaryMaxLength - 1)}…`,
    ],
  ];
  it.each(summaries)('summary: %s', (_, args, expected) => {
    expect(row('my_tool', args).summary).toBe(expected);
  });

  const editor: [string, unknown, string][] = [
    ['create: the path, not the command', { command: 'create', path: 'src/a.py' }, 'src/a.py'],
    [
      'str_replace: the path',
      { command: 'str_replace', path: '/home/ada/project/a.py', old_str: 'x' },
      'a.py',
    ],
    ['view: the path, home abbreviated', { command: 'view', path: '/home/ada/n.md' }, '~/n.md'],
    ['no path: the first other string', { command: 'undo', note: 'why' }, 'undo'],
  ];
  it.each(editor)('str_replace_editor summary: %s', (_, args, expected) => {
    expect(row('str_replace_editor', args).summary).toBe(expected);
  });

  const paths: [string, unknown, typeof posix, string | undefined, string | undefined][] = [
    [
      'absolute inside cwd',
      { file_path: '/home/ada/project/a.ts' },
      posix,
      '/home/ada/project/a.ts',
      'a.ts',
    ],
    ['relative', { file_path: 'src/a.ts' }, posix, '/home/ada/project/src/a.ts', 'src/a.ts'],
    ['path field', { path: '/etc/hosts' }, posix, '/etc/hosts', '/etc/hosts'],
    [
      'Windows',
      { file_path: 'c:\\Users\\ada\\x.txt' },
      windows,
      'C:\\Users\\ada\\x.txt',
      '~\\x.txt',
    ],
    ['none', { command: 'ls' }, posix, undefined, undefined],
    ['not a string', { file_path: 3 }, posix, undefined, undefined],
  ];
  it.each(paths)('path for opening: %s', (_, args, facts, path, displayPath) => {
    expect(row('read', args, facts)).toMatchObject({ path, displayPath });
  });

  const argsTexts: [string, string, string][] = [
    ['pretty JSON', '{"a":1,"b":[true]}', '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}'],
    ['raw text when not JSON', '{"a":1', '{"a":1'],
    ['empty', '', ''],
  ];
  it.each(argsTexts)('arguments: %s', (_, raw, expected) => {
    expect(row('x', raw).argsText).toBe(expected);
  });

  const image = create(ContentBlockSchema, {
    block: { case: 'image', value: { mediaType: 'image/png', data: new Uint8Array(3) } },
  });
  const results: [string, ReturnType<typeof toolBlock>, Partial<GenericRow>][] = [
    [
      'running',
      toolBlock('x', {}),
      { state: 'running', resultText: '', errorText: '', errorCode: '' },
    ],
    [
      'ok, text blocks joined',
      toolBlock('x', {}, { result: { content: [text('a'), text('b')] } }),
      { state: 'ok', resultText: 'a\nb', errorText: '' },
    ],
    [
      'ok with an image',
      toolBlock('x', {}, { result: { content: [text('see'), image] } }),
      { resultText: 'see\n[image: image/png, 3 bytes]' },
    ],
    [
      'structured error',
      failed('x', {}, 'denied', 'body', 'Denied by policy'),
      { state: 'error', errorText: 'Denied by policy', errorCode: 'denied', resultText: 'body' },
    ],
    [
      'error without structure: content first line',
      failedWithoutError('x', {}, 'boom\nstack'),
      { state: 'error', errorText: 'boom …', errorCode: '' },
    ],
    ['error without anything', failedWithoutError('x', {}, ''), { errorText: 'Error' }],
    [
      'stopped by a cancelled turn',
      failed('x', {}, 'interrupted', '', 'Interrupted'),
      { state: 'stopped', errorText: 'Interrupted', errorCode: 'interrupted' },
    ],
    [
      'stopped while still open',
      asStopped(toolBlock('x', {})),
      { state: 'stopped', errorText: '' },
    ],
  ];
  it.each(results)('result and state: %s', (_, block, expected) => {
    expect(genericRow(block, posix)).toMatchObject(expected);
  });

  it('titles an orphan by its callId and shows its output', () => {
    const orphan = toolBlock(
      'bash',
      { command: 'ls' },
      { callId: 'c-77', head: false, result: { content: 'out' } },
    );
    expect(genericRow(orphan, posix)).toMatchObject({
      title: 'c-77',
      tool: '',
      kind: 'other',
      summary: '',
      argsText: '',
      resultText: 'out',
      orphan: true,
    });
  });

  it('marks sub-calls as nested and keeps their rules', () => {
    const sub = asSubCall(succeeded('bash', { command: 'ls' }, 'x'));
    expect(genericRow(sub, posix)).toMatchObject({ nested: true, kind: 'bash', summary: 'ls' });
    expect(genericRow(toolBlock('bash', {}), posix).nested).toBe(false);
  });

  it('renders a typical row', () => {
    const block = succeeded(
      'grep',
      { pattern: 'TODO', path: '/home/ada/project/src' },
      'src/a.ts:1:TODO',
    );
    expect(genericRow(block, posix)).toMatchSnapshot();
  });
});
