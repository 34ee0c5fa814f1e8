import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnHelper, type HelperJob, type RunEvent } from '../src/search/start-on-helper.js';
import { tempDir } from './journal-test-kit.js';
import { ripgrepAbsent } from './ripgrep-available.js';

const skip = ripgrepAbsent('the ripgrep helper tests');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const killedHost = fileURLToPath(new URL('./search-until-killed.ts', import.meta.url));

/** The child processes of `pid` (every thread's), from /proc. */
function children(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
      .split(' ')
      .filter((s) => s !== '')
      .map(Number),
  );
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The ripgrep helper processes `pid` started. */
function helpersOf(pid: number): number[] {
  return children(pid).filter((child) => commandLine(child).includes('ripgrep-helper.js'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return commandLine(pid) !== '';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 250 && !check(); i++) await pause(20);
  if (!check()) throw new Error(`timed out waiting until ${what}`);
}

/** Runs `job` on the helper to its end (or its first `lost`); the kinds of its events. */
function runToEnd(job: HelperJob, onStart?: () => void): Promise<RunEvent[]> {
  return new Promise((resolve) => {
    const events: RunEvent[] = [];
    startOnHelper(job, (event) => {
      events.push(event);
      if (event.kind === 'spawned') onStart?.();
      if (event.kind === 'exit' || event.kind === 'failed' || event.kind === 'lost') {
        resolve(events);
      }
    });
  });
}

describe.skipIf(skip)('startOnHelper()', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeFile(join(dir, 'a.jsonl'), 'one zebra\ntwo\nthree zebra\n');
  });
  afterAll(() => cleanup());

  const job = (program: string, args: string[]): HelperJob => ({
    program,
    args,
    stdin: undefined,
    maxOutputBytes: 1024 * 1024,
  });

  it.each([
    {
      name: 'rg with matches',
      job: () => job('rg', ['--json', '--no-config', 'zebra', join(dir, 'a.jsonl')]),
      kinds: ['spawned', 'messages', 'exit'],
      exit: { code: 0, signal: null, capped: false },
      lines: ['one zebra\n', 'three zebra\n'],
    },
    {
      name: 'rg with no match',
      job: () => job('rg', ['--json', '--no-config', 'okapi', join(dir, 'a.jsonl')]),
      kinds: ['spawned', 'exit'],
      exit: { code: 1, signal: null, capped: false },
      lines: [],
    },
    {
      name: 'rg past its output cap',
      job: () => ({ ...job('rg', ['--json', 'zebra', join(dir, 'a.jsonl')]), maxOutputBytes: 1 }),
      kinds: ['spawned', 'exit'],
      exit: { capped: true },
      lines: [],
    },
    {
      name: 'a program that is missing',
      job: () => job(join(dir, 'no-such-rg'), []),
      kinds: ['failed'],
      exit: undefined,
      lines: [],
    },
  ])('reports $name', async ({ job: make, kinds, exit, lines }) => {
    const events = await runToEnd(make());
    expect(events.map((e) => e.kind)).toEqual(kinds);
    if (exit !== undefined) expect(events.at(-1)).toMatchObject(exit);
    const matched = events.flatMap((e) =>
      e.kind === 'messages'
        ? e.messages.flatMap((m) =>
            m.type === 'match'
              ? [Buffer.from(e.lines).toString('utf8', m.lineStart, m.lineEnd)]
              : [],
          )
        : [],
    );
    expect(matched).toEqual(lines);
  });

  it('runs rg as a child of the helper, never of the host', async () => {
    let during: { helpers: number[]; own: string[] } | undefined;
    await runToEnd(job('sleep', ['0.2']), () => {
      const helpers = helpersOf(process.pid);
      const own = children(process.pid).map(commandLine);
      during = { helpers, own };
    });
    expect(during?.helpers).toHaveLength(1);
    expect(children(during!.helpers[0]!).map(commandLine)).toEqual([]);
    expect(during?.own.some((line) => line.startsWith('sleep'))).toBe(false);
  });

  it('ends live runs with `lost` when the helper dies, and the next run starts another', async () => {
    const ended = runToEnd(job('sleep', ['30']), () => {
      for (const helper of helpersOf(process.pid)) process.kill(helper, 'SIGKILL');
    });
    const events = await ended;
    expect(events.at(-1)).toMatchObject({
      kind: 'lost',
      reason: expect.stringContaining('search helper process stopped (SIGKILL)'),
    });
    const next = await runToEnd(job('rg', ['--json', 'zebra', join(dir, 'a.jsonl')]));
    expect(next.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
  });

  it("starts without the host's NODE_OPTIONS", async () => {
    // The next run starts a helper once this one is lost.
    await runToEnd(job('sleep', ['30']), () => {
      for (const helper of helpersOf(process.pid)) process.kill(helper, 'SIGKILL');
    });
    const options = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `--require ${join(dir, 'no-such-preload.cjs')}`;
    try {
      const events = await runToEnd(job('rg', ['--json', 'zebra', join(dir, 'a.jsonl')]));
      expect(events.at(-1)).toMatchObject({ kind: 'exit', code: 0 });
    } finally {
      if (options === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = options;
    }
  });

  it('ends with a host killed -9, and so do its runs', async () => {
    const host = spawn(process.execPath, ['--import', 'tsx', killedHost], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      host.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('running')) resolve();
      });
      host.once('exit', () => reject(new Error('the host ended before its run started')));
    });
    const [helper] = helpersOf(host.pid!);
    const runs = children(helper!);
    expect(runs.map(commandLine)).toEqual(['sleep 60 ']);
    host.kill('SIGKILL');
    await until(() => !alive(helper!), 'the helper ended');
    await until(() => !runs.some(alive), 'its run ended');
  });
});
