import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLongSession, scenarios } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { decodeHeaderLine, decodeEventLine, eventType } from '@dsh/journal';

/** The CLI package folder: the scripts run from here. */
const cliDir = fileURLToPath(new URL('../', import.meta.url));
const committedDir = journalsDir;
const fix = 'run `npm run fixtures` and commit fixtures/journals';

let freshDir = '';

beforeAll(async () => {
  freshDir = await mkdtemp(join(tmpdir(), 'dsh-fixtures-'));
  await run('scripts/write-fixtures.ts', '--out', freshDir);
});

afterAll(async () => {
  if (freshDir) await rm(freshDir, { recursive: true, force: true });
});

const run = (script: string, ...args: string[]) =>
  promisify(execFile)(process.execPath, ['bin/run-ts.js', script, ...args], { cwd: cliDir });

const journalFiles = async (dir: string) =>
  (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort();

describe('writeFixtures()', () => {
  it('writes one journal per scenario', async () => {
    expect(await journalFiles(freshDir)).toEqual(scenarios.map((s) => `${s.name}.jsonl`).sort());
  });

  it('matches the committed journals byte for byte', async () => {
    const fresh = await journalFiles(freshDir);
    const committed = await journalFiles(committedDir);
    expect(committed, `the set of journals changed: ${fix}`).toEqual(fresh);
    for (const file of fresh) {
      const want = await readFile(join(freshDir, file), 'utf8');
      const have = await readFile(join(committedDir, file), 'utf8');
      expect(have === want, `fixtures/journals/${file} is stale: ${fix}`).toBe(true);
    }
  });
});

describe('decodeEventLine() on committed journals', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))('%s decodes as intended', async (name, s) => {
    const lines = (await readFile(join(committedDir, `${name}.jsonl`), 'utf8')).split('\n');
    expect(lines.pop(), 'journal ends with a newline').toBe('');
    const header = decodeHeaderLine(lines[0] ?? '');
    expect(header.ok && header.value).toMatchObject({ sessionId: name, cwd: s.cwd, model: 'demo' });
    const extensions = new Set<string>();
    lines.slice(1).forEach((line, seq) => {
      const decoded = decodeEventLine(line, seq);
      if (!decoded.ok) throw new Error(`${name}.jsonl seq ${seq}: ${decoded.error}`);
      const { payload } = decoded.value;
      expect(payload.case, `${name}.jsonl seq ${seq}`).toBe(s.payloads[seq]?.case);
      if (payload.case === 'extension') extensions.add(eventType(decoded.value));
    });
    expect(lines.length - 1).toBe(s.payloads.length);
    expect([...extensions].sort()).toEqual([...(s.expect.extensionTypes ?? [])].sort());
  });
});

describe('writeLongJournal()', () => {
  it('streams exactly n generated events in the journal format', async () => {
    await mkdir(join(freshDir, 'long'));
    const path = join(freshDir, 'long', 'long-5000.jsonl');
    await run('scripts/long-journal.ts', path, '5000', '3');
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    const header = decodeHeaderLine(lines[0] ?? '');
    expect(header.ok && header.value.sessionId).toBe('long-5000');
    const expected = [...generateLongSession({ events: 5000, seed: 3 })].map((p) => p.case);
    const decoded = lines.slice(1).map((line, seq) => {
      const event = decodeEventLine(line, seq);
      if (!event.ok) throw new Error(`seq ${seq}: ${event.error}`);
      return event.value.payload.case;
    });
    expect(decoded).toEqual(expected);
  });
});
