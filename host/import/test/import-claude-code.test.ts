import { appendFile, copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { userMessage } from '@dsh/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { importClaudeCode, importedSessionId, importStateDirName } from '../src/index.js';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import {
  allEvents,
  cardsByCallId,
  fixtureSessionId,
  importSandbox,
  rendition,
  transcriptLines,
  type ImportSandbox,
} from './import-test-kit.js';

const mainId = importedSessionId(fixtureSessionId);
let sandbox: ImportSandbox | undefined;
let store: FileJournalStore | undefined;

afterEach(async () => {
  await store?.close();
  await sandbox?.close();
  store = undefined;
  sandbox = undefined;
});

async function setup(
  withLines?: number,
): Promise<{ sandbox: ImportSandbox; store: FileJournalStore }> {
  sandbox = await importSandbox(withLines);
  store = await createJournalStore({ dataDir: sandbox.dataDir });
  return { sandbox, store };
}

describe('importClaudeCode()', () => {
  it('imports the main transcript, its sidechain and its sub-agent with their lineage', async () => {
    const { sandbox, store } = await setup();
    const warnings: string[] = [];
    const summary = await importClaudeCode(store, sandbox.projects, {
      onWarning: (m) => warnings.push(m),
    });
    expect(summary).toMatchObject({ files: 2, malformed: 1, failed: [] });
    expect(summary.sessions).toEqual([mainId, `${mainId}-side-1`, `${mainId}-agent-a1b2c3`]);
    const lineage = (await store.list())
      .map((s) => [s.header.sessionId, s.header.parentId, s.header.cwd, s.header.title])
      .sort();
    expect(lineage).toEqual([
      [
        mainId,
        '',
        '/work/demo',
        'Claude Code: Please tidy up the greeting module and run the tests.',
      ],
      [`${mainId}-agent-a1b2c3`, mainId, '/work/demo', 'Claude Code: Count the TypeScript files.'],
      [`${mainId}-side-1`, mainId, '/work/demo', 'Claude Code: Read the README and report.'],
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /0b6f3c1e-1111-4a5b-9c1d-000000000001\.jsonl:40: not valid JSON.*line skipped$/,
      ),
    ]);
  });

  it('writes the events of the main transcript in the agent runtime shape', async () => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    expect(rendition(await allEvents(await store.open(mainId)))).toMatchSnapshot();
  });

  it.each([
    // call id, card body kind, what else the card must say
    ['toolu_glob', 'search', { shape: 'paths', shown: 2 }],
    ['toolu_read', 'read', { offset: 1, lineCount: 3, totalLines: 10, lang: 'typescript' }],
    ['toolu_grep', 'search', { shape: 'matches', shown: 3, total: 3 }],
    ['toolu_grepf', 'search', { shape: 'paths' }],
    ['toolu_edit', 'diff', { source: 'applied', created: false, added: 1, removed: 1 }],
    ['toolu_write', 'diff', { created: true, added: 2 }],
    [
      'toolu_bash',
      'terminal',
      {
        state: 'ok',
        ending: { kind: 'exit', code: 0 },
        output: 'PASS src/greet.test.ts\nTests: 1 passed',
      },
    ],
    ['toolu_bash2', 'terminal', { state: 'error', ending: { kind: 'exit', code: 2 } }],
    ['toolu_bash3', 'terminal', { state: 'ok', ending: { kind: 'exit', code: 1 } }],
    ['toolu_todo', 'todo', { done: 1, active: 1 }],
    ['toolu_fetch', 'web', { tool: 'web_fetch', statusCode: 200 }],
    [
      'toolu_search',
      'web',
      {
        tool: 'web_search',
        sources: [expect.objectContaining({ url: 'https://vitest.dev/api/expect' })],
      },
    ],
    ['toolu_ask', 'question', { state: 'answered' }],
    ['toolu_mcp', 'generic', {}],
    ['toolu_task', 'generic', {}],
    ['toolu_deploy', 'generic', {}],
  ])('gives %s the %s card', async (callId, kind, facts) => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    const card = cardsByCallId(await allEvents(await store.open(mainId))).get(callId);
    expect(card?.body).toMatchObject({ kind, ...facts });
  });

  it('settles interrupted calls with the interrupted code and cancels their turns', async () => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    const cards = cardsByCallId(await allEvents(await store.open(mainId)));
    expect(cards.get('toolu_deploy')?.row).toMatchObject({
      state: 'stopped',
      errorCode: 'interrupted',
    });
    expect(cards.get('toolu_slow')?.row).toMatchObject({
      state: 'stopped',
      errorCode: 'interrupted',
    });
  });

  it('keeps lines it does not map as claude-code extension events', async () => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    const events = await allEvents(await store.open(mainId));
    const unknown = events.flatMap((e) =>
      e.payload.case === 'extension' ? [e.payload.value] : [],
    );
    // Documented bookkeeping (the summary, file-history snapshots) adds no event.
    expect(unknown.map((e) => e.type)).toEqual(['claude-code/holodeck-event']);
    expect(JSON.parse(unknown[0]!.dataJson)).toMatchObject({ detail: { mood: 'new-version' } });
  });

  it('is idempotent: a second run adds nothing', async () => {
    const { sandbox, store } = await setup();
    const first = await importClaudeCode(store, sandbox.projects);
    const lengths = await Promise.all(
      first.sessions.map(async (id) => (await store.open(id)).length),
    );
    const second = await importClaudeCode(store, sandbox.projects);
    expect(second).toMatchObject({ events: 0, sessions: first.sessions, failed: [] });
    expect(
      await Promise.all(first.sessions.map(async (id) => (await store.open(id)).length)),
    ).toEqual(lengths);
  });

  it('continues a grown transcript exactly where it stopped', async () => {
    const cut = 10; // after a tool result, mid-turn
    const { sandbox, store } = await setup(cut);
    await importClaudeCode(store, sandbox.projects);
    const partial = (await store.open(mainId)).length;
    await appendFile(sandbox.mainPath, (await transcriptLines(undefined, cut)).join(''));
    const grown = await importClaudeCode(store, sandbox.projects);
    expect(grown.events).toBeGreaterThan(0);
    const continued = rendition(await allEvents(await store.open(mainId)));
    expect(continued.length).toBeGreaterThan(partial);

    const whole = await createJournalStore({ dataDir: join(sandbox.dataDir, '..', 'whole') });
    try {
      await importClaudeCode(whole, join(sandbox.projects, '..', 'projects'), {});
      expect(continued).toEqual(rendition(await allEvents(await whole.open(mainId))));
    } finally {
      await whole.close();
    }
  });

  it('skips events already appended when the state was not saved (a crash after append)', async () => {
    const { sandbox, store } = await setup(10);
    await importClaudeCode(store, sandbox.projects);
    const stateDir = join(sandbox.dataDir, importStateDirName);
    const stateFile = join(
      stateDir,
      (await readdir(stateDir)).find((f) => f.endsWith('.json'))!,
    );
    await copyFile(stateFile, `${stateFile}.before`);
    await appendFile(sandbox.mainPath, (await transcriptLines(undefined, 10)).join(''));
    await importClaudeCode(store, sandbox.projects);
    const expected = rendition(await allEvents(await store.open(mainId)));
    await writeFile(stateFile, await readFile(`${stateFile}.before`));
    const again = await importClaudeCode(store, sandbox.projects);
    expect(again.failed).toEqual([]);
    expect(rendition(await allEvents(await store.open(mainId)))).toEqual(expected);
  });

  it('adopts sessions whose import state was lost, without duplicating them', async () => {
    const { sandbox, store } = await setup();
    const first = await importClaudeCode(store, sandbox.projects);
    const before = rendition(await allEvents(await store.open(mainId)));
    await rm(join(sandbox.dataDir, importStateDirName), { recursive: true });
    const again = await importClaudeCode(store, sandbox.projects);
    expect(again).toMatchObject({ events: 0, failed: [], sessions: first.sessions });
    expect(rendition(await allEvents(await store.open(mainId)))).toEqual(before);
  });

  it('refuses to continue a session that something else appended to', async () => {
    const { sandbox, store } = await setup(10);
    await importClaudeCode(store, sandbox.projects);
    await (await store.open(mainId)).append([userMessage('typed in dsh')]);
    await appendFile(sandbox.mainPath, (await transcriptLines(undefined, 10)).join(''));
    const summary = await importClaudeCode(store, sandbox.projects);
    expect(summary.failed).toEqual([
      {
        path: sandbox.mainPath,
        error: expect.stringMatching(/holds events this import did not write/),
      },
    ]);
  });

  it('reports a transcript that cannot be imported and imports the others', async () => {
    const { sandbox, store } = await setup();
    await importClaudeCode(store, sandbox.projects);
    await writeFile(sandbox.mainPath, '{"type":"user"}\n');
    const summary = await importClaudeCode(store, sandbox.projects);
    expect(summary.failed).toEqual([
      { path: sandbox.mainPath, error: expect.stringMatching(/shrank .* it was rewritten/) },
    ]);
  });
});
