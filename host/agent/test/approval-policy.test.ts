import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { approvalVerdict } from '../src/index.js';
import type { ApprovalPolicy } from '../src/index.js';

// A session folder with links out of it, an allowed folder, and the world outside.
const root = mkdtempSync(join(tmpdir(), 'dsh-policy-'));
const cwd = join(root, 'work');
const spillDir = join(root, 'spill');
const outside = join(root, 'outside');
const shared = join(root, 'shared');
const notes = join(root, 'notes');
for (const dir of [cwd, spillDir, outside, shared, notes, join(cwd, 'src')]) mkdirSync(dir);
writeFileSync(join(outside, 'secret.txt'), 'secret\n');
writeFileSync(join(cwd, 'src', 'a.ts'), 'a\n');
symlinkSync(join(outside, 'secret.txt'), join(cwd, 'secret-link'));
symlinkSync(outside, join(cwd, 'out-dir'));
symlinkSync(join(outside, 'not-yet.txt'), join(cwd, 'dangling'));
symlinkSync(join(cwd, 'src'), join(outside, 'back-in'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folders = { cwd, spillDir };
const allowPaths = { read: [notes], write: [shared] };

describe('approvalVerdict()', () => {
  it.each([
    { tool: 'bash', args: { command: 'ls' }, want: 'ask', reason: 'runs a shell command' },
    { tool: 'terminal_send', args: {}, want: 'ask' },
    { tool: 'bash', args: { command: 'ls' }, overrides: { bash: 'allow' }, want: 'allow' },
    { tool: 'write', args: { file_path: 'a.txt' }, want: 'allow' },
    { tool: 'write', args: { file_path: join(cwd, 'sub/new/a.txt') }, want: 'allow' },
    { tool: 'write', args: { file_path: '../a.txt' }, want: 'ask' },
    { tool: 'edit', args: { file_path: '/etc/passwd' }, want: 'ask' },
    { tool: 'str_replace_editor', args: { command: 'create', path: '/tmp/x' }, want: 'ask' },
    { tool: 'write', args: 'not json', want: 'allow' },
    { tool: 'write', args: { file_path: 7 }, want: 'allow' },
    { tool: 'read', args: {}, overrides: { read: 'deny' }, want: 'deny' },
    { tool: 'echo', args: { text: 'x' }, want: 'allow' },
    { tool: 'constructor', args: {}, want: 'allow' },
    // Reads and searches outside the session folders ask too.
    {
      tool: 'read',
      args: { file_path: '/etc/shadow' },
      want: 'ask',
      reason: 'reads outside the session directory: /etc/shadow',
    },
    { tool: 'read', args: { file_path: 'src/a.ts' }, want: 'allow' },
    { tool: 'read', args: { file_path: join(spillDir, 'call-1.log') }, want: 'allow' },
    { tool: 'write', args: { file_path: join(spillDir, 'call-1.log') }, want: 'ask' },
    { tool: 'str_replace_editor', args: { command: 'view', path: '/etc' }, want: 'ask' },
    {
      tool: 'grep',
      args: { pattern: 'x', path: '/' },
      want: 'ask',
      reason: 'searches outside the session directory: /',
    },
    { tool: 'grep', args: { pattern: 'x' }, want: 'allow' },
    { tool: 'grep', args: { pattern: 'x', path: null }, want: 'allow' },
    { tool: 'glob', args: { pattern: '*', path: '..' }, want: 'ask' },
    { tool: 'glob', args: { pattern: '*', path: 'src' }, want: 'allow' },
    // Symlinks are resolved before deciding.
    {
      tool: 'read',
      args: { file_path: 'secret-link' },
      want: 'ask',
      reason: `reads outside the session directory: secret-link (really ${join(outside, 'secret.txt')})`,
    },
    { tool: 'write', args: { file_path: 'out-dir/new.txt' }, want: 'ask' },
    { tool: 'grep', args: { pattern: 'x', path: 'out-dir' }, want: 'ask' },
    { tool: 'write', args: { file_path: 'dangling' }, want: 'ask' },
    { tool: 'read', args: { file_path: join(outside, 'back-in', 'a.ts') }, want: 'allow' },
    // allowPaths: write folders take writes and reads, read folders only reads.
    { tool: 'write', args: { file_path: join(shared, 'x/y.txt') }, want: 'allow' },
    { tool: 'read', args: { file_path: join(shared, 'y.txt') }, want: 'allow' },
    { tool: 'grep', args: { pattern: 'x', path: notes }, want: 'allow' },
    { tool: 'edit', args: { file_path: join(notes, 'n.md') }, want: 'ask' },
    { tool: 'read', args: { file_path: `${notes}-other/n.md` }, want: 'ask' },
  ])('$tool $args -> $want', async (c) => {
    const raw = typeof c.args === 'string' ? c.args : JSON.stringify(c.args);
    const overrides = (c.overrides ?? {}) as Record<string, ApprovalPolicy>;
    const verdict = await approvalVerdict(c.tool, raw, folders, { overrides, allowPaths });
    expect(verdict.policy).toBe(c.want);
    if (c.reason !== undefined) expect(verdict.reason).toBe(c.reason);
  });
});
