import { homedir } from 'node:os';
import { join } from 'node:path';
import { createAgentRuntime, recoverDanglingTurn, type SessionOwnership } from '@dsh/agent';
import { webDistDir } from '@dsh/client-web/web-dist';
import { journalsDir } from '@dsh/fixtures/journals';
import { contextBudgetFor, createProviderFactory } from '@dsh/providers';
import { loadAgentConfig, type ModelSettings } from './load-agent-config.js';
import { createFirstPartyTools, searchProviderFromEnv } from '@dsh/tools';
import {
  createProjectionRegistry,
  standardProjections,
  type Journal,
  type JournalStore,
  type ModelPrice,
  type PriceTable,
  type ProjectionRegistry,
  type SessionSearch,
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
import { runnableModels } from './runnable-models.js';

/** The demo journals copied into an empty data dir on first start. */
const demoJournalsDir = journalsDir;
/** The fixture journals a first start copies: one of each card, a long session, code mode, approvals, an interrupted turn. */
const demoSessions = ['showcase', 'long-paging', 'run-code', 'approvals', 'interrupted-turn'];
/** The built web client, served at `/` when it exists. */
const webRoot = webDistDir;

/** What the store opener gets: the recovery on first open and the projections. */
interface StoreSettings {
  readonly onFirstOpen: (journal: Journal) => Promise<unknown>;
  readonly projections: ProjectionRegistry | undefined;
}

/** An opened store, with its search when it has one and the file store `attach` works on. */
interface OpenedStore {
  readonly store: JournalStore;
  readonly search: SessionSearch | undefined;
  readonly files: FileJournalStore | undefined;
  /** Which host runs each session, when several hosts share the store. */
  readonly ownership: SessionOwnership | undefined;
  /** How the startup lines name where sessions are kept. */
  readonly where: string;
}

/**
 * Runs `dsh serve` until SIGINT or SIGTERM. With the file store it takes the data dir's
 * writer lock (refusing to start, naming the holder, when another process has it;
 * serving read-only when the dir cannot be written) and seeds demo sessions into an
 * empty data dir; with a PostgreSQL store it connects and migrates the schema instead
 * (several hosts may share one database). Then it serves the store, prints the URL (and
 * a generated token), shuts down gracefully and releases the lock. Resolves with the
 * process exit code.
 */
export async function serve(
  config: ServeConfig,
  out: (line: string) => void,
  /** Extra work bound to the store's lifetime (e.g. `--watch-claude`); returns its stop. */
  attach?: (store: FileJournalStore) => Promise<() => Promise<void>>,
): Promise<number> {
  const { store: choice } = config;
  if (choice.kind === 'postgres') {
    if (config.fixtureDirs.length > 0) {
      throw new Error('--fixtures serves journal files: use it with --store file (the default)');
    }
    if (attach !== undefined) {
      throw new Error(
        '--watch-claude and --watch-codex keep their state beside journal files: ' +
          'use them with --store file (the default)',
      );
    }
    return serveStore(config, out, async (settings) => {
      // Loaded here: node-postgres adds about 50 ms to every start of a file-journal host.
      const { createPgJournalStore } = await import('@dsh/journal-pg');
      const store = await createPgJournalStore({
        url: choice.url,
        ...leaseSetting(process.env),
        onFirstOpen: settings.onFirstOpen,
        ...(settings.projections !== undefined && { projections: settings.projections }),
      });
      return {
        store,
        search: store.search,
        files: undefined,
        ownership: store.leases,
        where: `store ${store.location}`,
      };
    });
  }
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
  return serveStore(
    config,
    out,
    async (settings) => {
      const store = await createJournalStore({
        dataDir: config.dataDir,
        fixtureDirs: [...config.fixtureDirs],
        onFirstOpen: settings.onFirstOpen,
        // A missing, stale or damaged index beside a journal is rebuilt; the log says so.
        log: (line) => out(`dsh: ${line}`),
        ...(settings.projections !== undefined && { projections: settings.projections }),
      });
      return {
        store,
        search: store.search,
        files: store,
        ownership: undefined,
        where: `data dir ${config.dataDir}`,
      };
    },
    attach,
  );
}

/** Serves the store `open` opens until SIGINT or SIGTERM (see `serve`). */
async function serveStore(
  config: ServeConfig,
  out: (line: string) => void,
  open: (settings: StoreSettings) => Promise<OpenedStore>,
  attach?: (store: FileJournalStore) => Promise<() => Promise<void>>,
): Promise<number> {
  const agentConfig = await loadAgentConfig(config.model, process.env, homedir());
  if ('error' in agentConfig) throw new Error(agentConfig.error);
  const { model, approvals, allowPaths, allowNetworks, models, contextBudget } = agentConfig.config;
  const prices = priceTable(models);
  await buildWebClient(webRoot, out);
  const { token, generated } = resolveToken(config.host, config.token);
  const opened = await open({
    // A turn a stopped host left open is closed before any client sees the session.
    onFirstOpen: (journal) => recoverDanglingTurn(journal),
    projections:
      prices === undefined ? undefined : createProjectionRegistry(standardProjections(prices)),
  });
  const { store } = opened;
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
    ...outageSetting(process.env),
    ...(opened.ownership !== undefined && { ownership: opened.ownership }),
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
      ...(opened.search !== undefined && { search: opened.search }),
      agent,
      host: config.host,
      port: config.port,
      token,
      webRoot,
      defaultModel: model.model,
      models: runnableModels(model, models.keys()),
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
  out(`dsh: ${opened.where}`);
  for (const dir of config.fixtureDirs) out(`dsh: fixtures (read-only) ${dir}`);
  // Inputs left waiting in a queue when the host last stopped run again, in the background,
  // once the catalog's facts (which say which sessions have none) were checked.
  void (opened.files?.verified() ?? Promise.resolve()).then(async () => {
    const resumed = await agent.resume();
    if (resumed.length > 0) out(`dsh: resumed the queue of ${resumed.length} session(s)`);
  });
  let detach: (() => Promise<void>) | undefined;
  try {
    if (attach !== undefined && opened.files !== undefined) detach = await attach(opened.files);
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

/**
 * `DSH_LEASE_MS`: how long a session's runtime lease lasts on a shared store without
 * renewal (the PostgreSQL store's default when unset or not a number).
 */
function leaseSetting(env: NodeJS.ProcessEnv): { leaseMs?: number } {
  const ms = Number(env.DSH_LEASE_MS);
  return env.DSH_LEASE_MS !== undefined && Number.isFinite(ms) && ms > 0 ? { leaseMs: ms } : {};
}

/**
 * `DSH_OUTAGE_MS`: how long a turn retries appends while the store is unreachable before
 * it stops (the agent's default, 60 s, when unset or not a number).
 */
function outageSetting(env: NodeJS.ProcessEnv): { outageMs?: number } {
  const ms = Number(env.DSH_OUTAGE_MS);
  return env.DSH_OUTAGE_MS !== undefined && Number.isFinite(ms) && ms > 0 ? { outageMs: ms } : {};
}

/** The prices of the config file's `models`, or undefined when no model has one (no cost). */
function priceTable(models: ReadonlyMap<string, ModelSettings>): PriceTable | undefined {
  const table = new Map<string, ModelPrice>();
  for (const [name, settings] of models) if (settings.price) table.set(name, settings.price);
  return table.size === 0 ? undefined : table;
}
