import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { PromptMode, SessionService, type Baseline } from '@dsh/gen/service';
import { afterEach, describe, expect, it } from 'vitest';
import { startDsh, type DshProcess } from './dsh-process.js';

let root: string;
let dsh: DshProcess | undefined;
afterEach(async () => {
  await dsh?.stop();
  dsh = undefined;
  await rm(root, { recursive: true, force: true });
});

/** USD per million tokens the config file gives the demo model. */
const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

/** Starts `dsh serve` whose `~/.dsh/config.json` holds `config`. */
async function serveWith(config: object | undefined): Promise<Client<typeof SessionService>> {
  root = await mkdtemp(join(tmpdir(), 'dsh-cost-'));
  const home = join(root, 'home');
  await mkdir(join(home, '.dsh'), { recursive: true });
  if (config !== undefined) {
    await writeFile(join(home, '.dsh', 'config.json'), JSON.stringify(config));
  }
  dsh = await startDsh({ cwd: root, home, dataDir: join(root, 'data') });
  return createClient(
    SessionService,
    createConnectTransport({ baseUrl: dsh.url, httpVersion: '1.1' }),
  );
}

/** The tail page's end baseline once the session holds a step that reported usage. */
async function baselineAfterUsage(
  client: Client<typeof SessionService>,
  sessionId: string,
): Promise<Baseline> {
  for (let i = 0; i < 200; i++) {
    const page = await client.page({ sessionId });
    const end = page.endBaseline;
    if (end !== undefined && (end.tokenUsage?.messages ?? 0) > 0) return end;
    await sleep(50);
  }
  throw new Error(`no step of session ${sessionId} reported usage`);
}

async function promptOnce(client: Client<typeof SessionService>): Promise<Baseline> {
  const { session } = await client.createSession({ cwd: root });
  const sessionId = session?.id ?? '';
  await client.prompt({
    sessionId,
    content: [{ block: { case: 'text', value: { text: 'hello' } } }],
    mode: PromptMode.QUEUE,
  });
  const baseline = await baselineAfterUsage(client, sessionId);
  await client.cancel({ sessionId });
  return baseline;
}

describe('dsh serve with a price table in its config file', () => {
  it('prices the steps in the tail page baseline, per session and per turn', async () => {
    const client = await serveWith({ models: { demo: { price } } });
    const baseline = await promptOnce(client);
    const tokens = baseline.tokenUsage!;
    const usd =
      (Number(tokens.inputTokens) * price.input +
        Number(tokens.outputTokens) * price.output +
        Number(tokens.cacheReadTokens) * price.cacheRead +
        Number(tokens.cacheWriteTokens) * price.cacheWrite) /
      1_000_000;
    expect(usd).toBeGreaterThan(0);
    expect(baseline.cost?.usd).toBeCloseTo(usd, 9);
    expect(baseline.cost?.pricedSteps).toBe(tokens.messages);
    expect(baseline.cost?.unpricedSteps).toBe(0);
    expect(baseline.latestTurn?.turn).toBe(1);
    expect(baseline.latestTurn?.cost?.usd).toBeCloseTo(usd, 9);
  }, 60_000);

  it('reports tokens and no cost without a price table', async () => {
    const client = await serveWith(undefined);
    const baseline = await promptOnce(client);
    expect(Number(baseline.tokenUsage?.inputTokens)).toBeGreaterThan(0);
    expect(baseline.cost).toBeUndefined();
    expect(baseline.latestTurn?.cost).toBeUndefined();
  }, 60_000);
});
