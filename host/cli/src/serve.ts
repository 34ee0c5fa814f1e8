import { homedir } from 'node:os';
import { join } from 'node:path';
import { createAgentRuntime, recoverDanglingTurn } from '@dsh/agent';
import { webDistDir } from '@dsh/client-web/web-dist';
import { journalsDir } from '@dsh/fixtures/journals';
import { contextBudgetFor, createProviderFactory } from '@dsh/providers';
import { loadAgentConfig, type ModelSettings } from './load-agent-config.js';
import { createFirstPartyTools, searchProviderFromEnv } from '@dsh/tools';
import {
  createProjectionRegistry,
  standardProjections,
  type ModelPrice,
  type PriceTable,
} from '@dsh/journal';
import {
  acquireDataDirLock,
  createJournalStore,
  dataDirHeldMessage,
  type DataDirLock,
  type FileJournalStore,
} from '@dsh/journal-file';
import { resolveToken, hostVersion, startServer } from '@dsh/server';
import type { ServeConfig } from './parse-serve-args.js';
import { buildWebClient } from './build-web-client.js';
import { seedDemoSessions } from './seed-demo-sessions.js';

/** The demo journals copied into an empty data dir on first start. */
const demoJournalsDir = journalsDir;
/** The fixture journals a first start copies: one of each card, a long session, code mode, approvals, an interrupted turn. */
const demoSessions = ['showcase', 'long-paging', 'run-code', 'approvals', 'interrupted-turn'];
/** The built web client, served at `/` when it exists. */
const webRoot = webDistDir;

/**
 * Runs `dsh serve` until SIGINT or SIGTERM: takes the data dir's writer lock (refusing to
 * start, naming the holder, when another process has it; serving read-only when the dir
 * cannot be written), seeds demo sessions into an empty data dir, opens the store,
 * serves it, prints the URL (and a generated token), then shuts down gracefully and
 * releases the lock. Resolves with the process exit code.
 */
export async function serve(
  config: ServeConfig,
  out: (line: string) => void,
  /** Extra work bound to the store's lifetime (e.g. `--watch-claude`); returns its stop. */
  attach?: (store: FileJournalStore) => Promise<() => Promise<void>>,
): Promise<number> {
  const lock = await acquireDataDirLock(config.dataDir, 'dsh serve');
  if (lock.kind === 'held') {
    throw new Error(
      dataDirHeldMessage(
        config.dataDir,
        lock,
        'stop that host, or serve another dir with --data-dir DIR',
      ),
    );
  }
  try {
    return await serveLocked(config, out, lock, attach);
  } finally {
    if (lock.kind === 'acquired') await lock.release();
  }
}

async function serveLocked(
  config: ServeConfig,
  out: (line: string) => void,
  lock: Exclude<DataDirLock, { kind: 'held' }>,
  attach?: (store: FileJournalStore) => Promise<() => Promise<void>>,
): Promise<number> {
  if (lock.kind === 'read_only') out(`dsh: ${lock.reason}; serving it read-only`);
  else {
    const seed = await seedDemoSessions(config.dataDir, demoJournalsDir, demoSessions);
    if ('skipped' in seed) {
      if (!seed.skipped.includes('not empty')) out(`dsh: no demo sessions seeded: ${seed.skipped}`);
    } else {
      out(`dsh: seeded ${seed.seeded.length} demo sessions into ${config.dataDir}`);
    }
  }
  const agentConfig = await loadAgentConfig(config.model, process.env, homedir());
  if ('error' in agentConfig) throw new Error(agentConfig.error);
  const { model, approvals, allowPaths, allowNetworks, models, contextBudget } = agentConfig.config;
  const prices = priceTable(models);
  await buildWebClient(webRoot, out);
  const { token, generated } = resolveToken(config.host, config.token);
  const store = await createJournalStore({
    dataDir: config.dataDir,
    fixtureDirs: [...config.fixtureDirs],
    // A turn a stopped host left open is closed before any client sees the session.
    onFirstOpen: (journal) => recoverDanglingTurn(journal),
    // A missing, stale or damaged index beside a journal is rebuilt; the log says so.
    log: (line) => out(`dsh: ${line}`),
    ...(prices !== undefined && {
      projections: createProjectionRegistry(standardProjections(prices)),
    }),
  });
  // The demo model fetches the host's own page; its URL is known once the server listens.
  const demo: { hostUrl?: string } = {};
  const tools = createFirstPartyTools({
    searchProvider: searchProviderFromEnv(process.env),
    allowNetworks,
    // The offline demo model's tour fetches the host's own page: that one loopback URL is
    // trusted for it alone. A real model is untrusted input and reaches no loopback page.
    trustedUrls: () =>
      model.kind !== 'demo' || demo.hostUrl === undefined ? [] : [new URL(demo.hostUrl).href],
  });
  const agent = createAgentRuntime({
    store,
    provider: createProviderFactory(model, demo),
    tools: tools.tools,
    approvals,
    allowPaths,
    spillRoot: join(config.dataDir, '.spill'),
    contextBudget: (name) =>
      contextBudget ?? models.get(name)?.contextBudget ?? contextBudgetFor(name).budget,
  });
  const shutdownAgent = async (): Promise<void> => {
    await agent.close();
    await tools.dispose();
  };
  let server;
  try {
    server = await startServer({
      store,
      search: store.search,
      agent,
      host: config.host,
      port: config.port,
      token,
      webRoot,
      defaultModel: model.model,
      limits: config.limits,
    });
  } catch (error) {
    await shutdownAgent();
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(`port ${config.port} is in use: pass --port N (0 picks a free port)`);
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new Error(`cannot bind ${config.host}: it is not an address of this machine`);
    }
    throw error;
  }
  demo.hostUrl = server.url;
  out(`dsh ${hostVersion} serving ${server.url}`);
  out(
    model.kind === 'demo'
      ? 'dsh: model: the offline demo model (set DSH_API_KEY or --base-url for a real one)'
      : `dsh: model: ${model.model} at ${model.baseUrl}`,
  );
  out(`dsh: data dir ${config.dataDir}`);
  for (const dir of config.fixtureDirs) out(`dsh: fixtures (read-only) ${dir}`);
  // Inputs left waiting in a queue when the host last stopped run again, in the background.
  void agent.resume().then((resumed) => {
    if (resumed.length > 0) out(`dsh: resumed the queue of ${resumed.length} session(s)`);
  });
  let detach: (() => Promise<void>) | undefined;
  try {
    detach = await attach?.(store);
  } catch (error) {
    await server.close();
    await shutdownAgent();
    await store.close();
    throw error;
  }
  if (generated) {
    out(
      `dsh: token ${token} (send "Authorization: Bearer <token>"; browsers open ${server.url}/?token=${token})`,
    );
  }
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  out(`dsh: ${signal}: shutting down`);
  // A second signal while closing ends the process at once.
  const force = (): void => process.exit(1);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  await detach?.();
  await server.close();
  await shutdownAgent();
  await store.close();
  return 0;
}

/** The prices of the config file's `models`, or undefined when no model has one (no cost). */
function priceTable(models: ReadonlyMap<string, ModelSettings>): PriceTable | undefined {
  const table = new Map<string, ModelPrice>();
  for (const [name, settings] of models) if (settings.price) table.set(name, settings.price);
  return table.size === 0 ? undefined : table;
}
