import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCodes } from '@dsh/card-models/contract';
import { createGlobTool, createGrepTool, createToolRuntime, resultText } from '../src/index.js';
import { lagDuring } from './event-loop-lag.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

const runtime = createToolRuntime([createGrepTool(1000), createGlobTool(1000)]);

async function run(name: string, args: unknown, signal?: AbortSignal) {
  const ctx = h.context(signal ? { signal } : {});
  const result = await runtime.run(name, JSON.stringify(args), ctx, { topLevel: true });
  return { result, text: resultText(result) };
}

describe('grep and glob limits', () => {
  it('stops a catastrophic regular expression at the time limit, off the event loop', async () => {
    writeFileSync(join(h.cwd, 'evil.txt'), `${'a'.repeat(30)}b\n`);
    const { value, worst } = await lagDuring(() => run('grep', { pattern: '^(a+)+$' }));
    expect(value.result.error?.code).toBe(errorCodes.timeout);
    expect(value.text).toMatch(/^Error: grep ran past its 1000 ms time limit and was stopped; /);
    // Run on the event loop, this match alone blocks it for seconds.
    expect(worst).toBeLessThan(1000);
  });

  it('stops a glob that expands without end', async () => {
    mkdirSync(join(h.cwd, 'a'));
    const { value, worst } = await lagDuring(() => run('glob', { pattern: '{a,b}'.repeat(16) }));
    expect(value.result.error?.code).toBe(errorCodes.timeout);
    expect(value.text).toContain('glob ran past its 1000 ms time limit');
    expect(worst).toBeLessThan(1000);
  });

  it('is interrupted by the abort signal', async () => {
    writeFileSync(join(h.cwd, 'evil.txt'), `${'a'.repeat(30)}b\n`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { result } = await run('grep', { pattern: '^(a+)+$' }, controller.signal);
    expect(result.error?.code).toBe(errorCodes.interrupted);
  });

  it('still searches after a worker was terminated', async () => {
    writeFileSync(join(h.cwd, 'evil.txt'), `${'a'.repeat(30)}b\n`);
    await run('grep', { pattern: '^(a+)+$' });
    const { text } = await run('grep', { pattern: 'b$' });
    expect(text).toBe('Found 1 matching line\nevil.txt:1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab');
  });

  it.each([
    { tool: 'glob', args: { pattern: '../*' }, message: 'pattern must not climb out' },
    { tool: 'glob', args: { pattern: 'a/../../*' }, message: 'pattern must not climb out' },
    { tool: 'glob', args: { pattern: '/etc/*' }, message: 'pattern must be relative' },
    { tool: 'grep', args: { pattern: 'x', glob: '../*' }, message: 'glob must not climb out' },
    { tool: 'grep', args: { pattern: 'x', glob: '/etc/*' }, message: 'glob must be relative' },
  ])('refuses $tool $args', async ({ tool, args, message }) => {
    const { result, text } = await run(tool, args);
    expect(result.error?.code).toBe(errorCodes.invalidArguments);
    expect(text).toContain(message);
  });

  it('neither lists nor reads through symbolic links inside the folder', async () => {
    const outside = join(h.root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'needle\n');
    symlinkSync(join(outside, 'secret.txt'), join(h.cwd, 'link.txt'));
    symlinkSync(outside, join(h.cwd, 'linked-dir'));
    writeFileSync(join(h.cwd, 'own.txt'), 'needle\n');
    expect((await run('grep', { pattern: 'needle' })).text).toBe(
      'Found 1 matching line\nown.txt:1:needle',
    );
    expect((await run('glob', { pattern: '**/*' })).text).toBe('own.txt');
  });
});
