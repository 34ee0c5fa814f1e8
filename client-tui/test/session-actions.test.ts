import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJsonString } from '@bufbuild/protobuf';
import { createClient, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionEventSchema } from '@dsh/gen/events';
import { SessionService } from '@dsh/gen/service';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionActions } from '../src/ui/session-actions.js';
import { startTestHost, type TestHost } from './test-host.js';

let dir: string;
let host: TestHost;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-tui-actions-'));
  host = await startTestHost({ dataDir: join(dir, 'data') });
});
afterEach(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createSessionActions().send', () => {
  it('sends prompts typed in quick succession in order, however long each is on the wire', async () => {
    // The first Prompt takes 300 ms to reach the host, the others none: sent at once,
    // the later ones would arrive first.
    const delays = [300, 0, 0];
    const slowWire: Interceptor = (next) => async (request) => {
      if (request.method.name === 'Prompt') {
        await new Promise((resolve) => setTimeout(resolve, delays.shift() ?? 0));
      }
      return next(request);
    };
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1', interceptors: [slowWire] }),
    );
    const created = await host.store.create({ cwd: dir });
    const id = created.header.sessionId;
    const actions = createSessionActions(client);
    const results = await Promise.all(
      ['one', 'two', 'three'].map((text) => actions.send(id, `prompt ${text}`, 'queue')),
    );
    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    const page = await client.page({ sessionId: id, maxMessages: 1000 });
    const text = page.events.map(({ event }) => toJsonString(SessionEventSchema, event!)).join();
    const at = ['one', 'two', 'three'].map((t) => text.indexOf(`prompt ${t}`));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
