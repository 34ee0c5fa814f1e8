import { spawn } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';
import { afterEach, describe, expect, it } from 'vitest';
import {
  extractWatchClaude,
  extractWatchCodex,
  parseImportArgs,
} from '../src/claude-code-command.js';
import { importedSessionId } from '@dsh/import';
import {
  fixtureSessionId,
  importSandbox,
  sharedSuiteName,
  sharedTranscripts,
  transcriptLines,
  type ImportSandbox,
} from '@dsh/import/test-kit';

const mainId = importedSessionId(fixtureSessionId);
const dshBin = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));
const env = { ...process.env, DSH_TOKEN: '', DSH_HOST: '', DSH_PORT: '', DSH_DATA_DIR: '' };

describe('parseImportArgs()', () => {
  const data = join(homedir(), '.dsh/sessions');
  it.each([
    [
      'defaults',
      ['claude-code'],
      {},
      {
        kind: 'import',
        format: 'claude-code',
        source: join(homedir(), '.claude/projects'),
        dataDir: data,
      },
    ],
    [
      'a dir and a data dir',
      ['claude-code', 'p', '--data-dir', 'd'],
      {},
      { kind: 'import', format: 'claude-code', source: '/w/p', dataDir: '/w/d' },
    ],
    [
      'the data dir from the environment',
      ['claude-code', '/t.jsonl'],
      { DSH_DATA_DIR: '~/x' },
      { kind: 'import', format: 'claude-code', source: '/t.jsonl', dataDir: join(homedir(), 'x') },
    ],
    ['help', ['--help'], {}, { kind: 'help' }],
    [
      'codex rollouts',
      ['codex'],
      {},
      {
        kind: 'import',
        format: 'codex',
        source: join(homedir(), '.codex/sessions'),
        dataDir: data,
      },
    ],
    [
      'a path whose formats are detected',
      ['some/dir'],
      {},
      { kind: 'import', format: 'detect', source: '/w/some/dir', dataDir: data },
    ],
    [
      'a detected path and an extra argument',
      ['a', 'b'],
      {},
      { kind: 'error', message: 'unexpected argument "b"' },
    ],
    [
      'no format',
      [],
      {},
      { kind: 'error', message: expect.stringMatching(/dsh import claude-code/) },
    ],
    [
      'an extra argument',
      ['claude-code', 'a', 'b'],
      {},
      { kind: 'error', message: 'unexpected argument "b"' },
    ],
  ])('%s', (_name, argv, environment, expected) => {
    expect(parseImportArgs(argv, environment, '/w')).toEqual(expected);
  });
});

describe('extractWatchClaude()', () => {
  const claude = join(homedir(), '.claude/projects');
  it.each([
    [['serve', '--port', '0'], ['serve', '--port', '0'], undefined],
    [['serve', '--watch-claude'], ['serve'], claude],
    [['--watch-claude', '--port', '0'], ['--port', '0'], claude],
    [['--watch-claude', 'serve'], ['serve'], claude],
    [['serve', '--watch-claude', 'p'], ['serve'], '/w/p'],
    [['serve', '--watch-claude=/abs'], ['serve'], '/abs'],
  ])('%j', (argv, rest, dir) => {
    expect(extractWatchClaude(argv, '/w')).toEqual({ argv: rest, watchClaude: dir });
  });
});

describe('extractWatchCodex()', () => {
  const codex = join(homedir(), '.codex/sessions');
  it.each([
    [['serve', '--watch-claude'], ['serve', '--watch-claude'], undefined],
    [['serve', '--watch-codex'], ['serve'], codex],
    [['--watch-codex', 'r', '--port', '0'], ['--port', '0'], '/w/r'],
    [['--watch-codex=/abs'], [], '/abs'],
  ])('%j', (argv, rest, dir) => {
    expect(extractWatchCodex(argv, '/w')).toEqual({ argv: rest, watchCodex: dir });
  });
});

let sandbox: ImportSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function run(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [dshBin, ...argv], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('dsh import claude-code (subprocess)', () => {
  it('imports, reports the malformed line, and adds nothing on a second run', async () => {
    sandbox = await importSandbox();
    const first = await run([
      'import',
      'claude-code',
      sandbox.projects,
      '--data-dir',
      sandbox.dataDir,
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /imported 2 transcript\(s\) into 3 session\(s\) \(\d+ new events, 1 malformed line\(s\) skipped\)/,
    );
    expect(first.stderr).toMatch(/000000000001\.jsonl:40: not valid JSON/);
    const second = await run([
      'import',
      'claude-code',
      sandbox.projects,
      '--data-dir',
      sandbox.dataDir,
    ]);
    expect(second.stdout).toMatch(/\(0 new events, 0 malformed/);
  });

  it('fails with a clear message for a missing source', async () => {
    sandbox = await importSandbox();
    const result = await run([
      'import',
      'claude-code',
      join(sandbox.projects, 'nope'),
      '--data-dir',
      sandbox.dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot import .*nope: it does not exist/);
  });
});

describe.skipIf(sharedTranscripts === undefined)(
  sharedSuiteName('dsh import PATH (subprocess)'),
  () => {
    it('imports the Claude Code transcripts and Codex rollouts found under a folder', async () => {
      sandbox = await importSandbox();
      const result = await run(['import', sharedTranscripts!, '--data-dir', sandbox.dataDir]);
      expect(result.stderr).not.toMatch(/dsh import codex|dsh import claude-code|failed/);
      expect(result.code).toBe(0);
      const sessions = /into (\d+) session\(s\)/.exec(result.stdout);
      expect(Number(sessions?.[1])).toBeGreaterThan(20);
      const again = await run([
        'import',
        'codex',
        join(sharedTranscripts!, 'codex'),
        '--data-dir',
        sandbox.dataDir,
      ]);
      expect(again.stdout).toMatch(/imported 5 transcript\(s\) into 5 session\(s\) \(0 new events/);
    });
  },
);

describe('dsh serve --watch-claude (subprocess)', () => {
  it('serves imported sessions and keeps them growing', async () => {
    sandbox = await importSandbox(8);
    const child = spawn(
      process.execPath,
      [
        dshBin,
        'serve',
        '--port',
        '0',
        '--data-dir',
        sandbox.dataDir,
        '--watch-claude',
        sandbox.projects,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /serving (http:\/\/127\.0\.0\.1:\d+)[\s\S]*watching Claude Code/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`dsh exited ${code}: ${stdout}`)));
    });
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: url, httpVersion: '1.1' }),
    );
    const imported = async () =>
      (await client.listSessions({})).sessions.find((s) => s.id === mainId);
    const before = (await imported())?.eventCount ?? 0;
    expect(before).toBeGreaterThan(0);
    await appendFile(sandbox.mainPath, (await transcriptLines(12, 8)).join(''));
    while (((await imported())?.eventCount ?? 0) <= before)
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
