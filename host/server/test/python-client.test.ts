import { execFile, execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { create } from '@bufbuild/protobuf';
import { toolCall, toolResult, userMessage } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import type { SessionEvent } from '@dsh/gen/events';
import { PageRequestSchema } from '@dsh/gen/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventType } from '@dsh/journal';
import { startTestHost, type TestHost } from './test-host.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
const client = join(root, 'examples/python-client/dsh_client.py');
const python = '/usr/bin/python3';

/** Debian's python3 with python3-protobuf and python3-grpcio, or why it is missing. */
function pythonProblem(): string | undefined {
  try {
    execFileSync(python, ['-c', 'import google.protobuf, grpc'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'needs Debian packages python3-protobuf and python3-grpcio (apt-get install -y python3-protobuf python3-grpcio)';
  }
}

const problem = pythonProblem();
if (problem !== undefined && process.env.CI === 'true') {
  throw new Error(`python client test: ${problem}; CI installs them in .ci/run`);
}

/** The record the Python client prints with --json, built from the TypeScript side. */
function record(event: SessionEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { seq: event.seq, type: eventType(event) };
  const { payload } = event;
  switch (payload.case) {
    case 'extension':
      out.data = payload.value.dataJson;
      break;
    case 'toolCall':
      Object.assign(out, {
        callId: payload.value.callId,
        name: payload.value.name,
        arguments: payload.value.arguments,
      });
      break;
    case 'toolResult':
      Object.assign(out, {
        callId: payload.value.callId,
        isError: payload.value.isError,
        meta: payload.value.metaJson,
      });
      break;
    case 'codeDispatchStart':
      Object.assign(out, {
        callId: payload.value.callId,
        parentCallId: payload.value.parentCallId,
        name: payload.value.name,
        arguments: payload.value.arguments,
      });
      break;
    default:
      break;
  }
  return out;
}

function lines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

describe.skipIf(problem !== undefined)('the Python client (gRPC over h2c)', () => {
  let host: TestHost;
  let addr: string;
  const py = async (...args: string[]): Promise<string> =>
    (await run(python, [client, '--host', addr, '--json', ...args], { timeout: 30_000 })).stdout;

  beforeAll(async () => {
    host = await startTestHost({ fixtureDirs: [journalsDir] });
    addr = host.server.url.replace('http://', '');
  });
  afterAll(async () => host.close());

  it('lists the same sessions as the TypeScript client', async () => {
    const ts = await host.client.listSessions({});
    const ids = lines(await py('list')).map((s) => (s as { id: string }).id);
    expect(ids).toEqual(ts.sessions.map((s) => s.id));
  });

  it.each(['showcase', 'run-code', 'hostile-output', 'extension-events', 'diff-edit'])(
    'pages %s exactly as the TypeScript client does: seqs, types, arguments and meta',
    async (sessionId) => {
      const ts = await host.client.page(create(PageRequestSchema, { sessionId, maxMessages: 5 }));
      const expected = ts.events.map((e) => record(e.event!));
      expect(lines(await py('page', sessionId, '--max-messages', '5'))).toEqual(expected);
      const first = ts.events[0]?.event?.seq ?? 0;
      if (first > 0) {
        const older = await host.client.page({ sessionId, beforeSeq: first, maxMessages: 5 });
        const args = ['page', sessionId, '--before', String(first), '--max-messages', '5'];
        expect(lines(await py(...args))).toEqual(older.events.map((e) => record(e.event!)));
      }
    },
  );

  it('follows a fixture from the start and stops at --until', async () => {
    const ts = await host.client.page({ sessionId: 'run-code', maxMessages: 1000 });
    const last = ts.events[ts.events.length - 1]?.event?.seq ?? 0;
    const out = await py('follow', 'run-code', '--until', String(last));
    expect(lines(out)).toEqual(ts.events.map((e) => record(e.event!)));
  });

  it('follows live appends in order and stops cleanly on Ctrl-C', async () => {
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append([userMessage('before')]);
    const child = spawn(python, [
      client,
      '--host',
      addr,
      '--json',
      'follow',
      journal.header.sessionId,
      '--after',
      '0',
    ]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    // Wait until the stream is open (the host counts the tail), then append.
    while (journal.tailCount === 0) await new Promise((r) => setTimeout(r, 20));
    await journal.append([toolCall('c1', 'bash', { command: 'echo "hi"' })]);
    await journal.append([
      toolResult('c1', 'hi\n[exit code: 0]', { meta: { note: 'é\u001b[0m' } }),
    ]);
    while (lines(stdout).length < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(0);
    const ts = await host.client.page({ sessionId: journal.header.sessionId, maxMessages: 10 });
    expect(lines(stdout)).toEqual(ts.events.slice(1).map((e) => record(e.event!)));
  });

  it('reports an unknown session as not_found', async () => {
    const failed = await run(python, [client, '--host', addr, 'page', 'no-such-session']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('not_found');
  });
});
