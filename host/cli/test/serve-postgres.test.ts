import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import type { SessionEvent } from '@dsh/gen/events';
import { PromptMode, SessionService } from '@dsh/gen/service';
import {
  freePort,
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '@dsh/journal-pg/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDsh, startDsh, type DshProcess } from './dsh-process.js';
import { followSession } from './session-follower.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;
let root: string;
const hosts: DshProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dsh-pg-serve-'));
  await mkdir(join(root, 'home'));
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  await postgres?.destroy();
  await rm(root, { recursive: true, force: true });
});

const text = (value: string) => [{ block: { case: 'text' as const, value: { text: value } } }];
const client = (url: string) =>
  createClient(SessionService, createConnectTransport({ baseUrl: url, httpVersion: '1.1' }));

describe('dsh serve --store', () => {
  it('exits 1 naming DSH_STORE / --store when the database is down', async () => {
    const url = `postgres://dsh@127.0.0.1:${await freePort()}/dsh`;
    const { code, output } = await runDsh(['serve', '--port', '0', '--store', url], {
      cwd: root,
      home: join(root, 'home'),
    });
    expect(output).toMatch(/is down or unreachable .*DSH_STORE \/ --store/);
    expect(code).toBe(1);
  });

  it.skipIf(skip)(
    'serves one database from three hosts: followers on B and C see a turn run on A',
    async () => {
      const start = async (name: string) => {
        const host = await startDsh({
          cwd: root,
          home: join(root, 'home'),
          dataDir: join(root, name),
          args: ['--store', postgres!.url],
        });
        hosts.push(host);
        return host;
      };
      const [a, b, c] = await Promise.all([start('a'), start('b'), start('c')]);
      const [onA, onB, onC] = [client(a.url), client(b.url), client(c.url)];
      const { session } = await onA.createSession({ cwd: root, title: 'two hosts' });
      const sessionId = session!.id;
      expect((await onB.listSessions({})).sessions.map((s) => s.id)).toContain(sessionId);
      const follower = followSession(onB, sessionId, () => undefined);
      const third = followSession(onC, sessionId, () => undefined);
      await onA.prompt({ sessionId, content: text('hello'), mode: PromptMode.QUEUE });
      const isEnd = (e: SessionEvent) => e.payload.case === 'turnEnd';
      await follower.waitFor('turn/start', (e) => e.payload.case === 'turnStart');
      await onA.cancel({ sessionId });
      await follower.waitFor('turn/end', isEnd, 45_000);
      await third.waitFor('turn/end', isEnd, 45_000);
      const seqs = follower.events.map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
      const pageA = await onA.page({ sessionId, maxMessages: 50 });
      const pageB = await onB.page({ sessionId, maxMessages: 50 });
      expect(pageB).toEqual(pageA);
      expect(await onC.page({ sessionId, maxMessages: 50 })).toEqual(pageA);
      expect(third.events).toEqual(follower.events);
      expect(pageB.events.map((e) => e.event?.seq)).toEqual(seqs.slice(0, pageB.events.length));
      await Promise.all([follower.stop(), third.stop()]);
      expect(a.output()).toContain('dsh: store postgres://postgres@127.0.0.1');
    },
    90_000,
  );
});
