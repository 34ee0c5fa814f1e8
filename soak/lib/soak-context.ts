import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalPolicy } from '@dsh/agent';
import type { FakeModel } from './fake-model.js';
import { startHost, type HostProcess } from './host-process.js';

/** A host that serves, with its URL. */
export type StartedHost = HostProcess & { url: string };

/** How a probe asks for a host on the fake model. */
export interface HostRequest {
  /** Data dir; a fresh one under the scratch dir when absent. */
  readonly dataDir?: string;
  /** Per-tool approval policies written to the host's `--config` file. */
  readonly approvals?: Readonly<Record<string, ApprovalPolicy>>;
  readonly nodeArgs?: readonly string[];
  /** Process cwd (the default cwd of new sessions); a fresh dir when absent. */
  readonly cwd?: string;
  /** More `dsh serve` flags, after the ones every soak host gets. */
  readonly serveArgs?: readonly string[];
}

/**
 * Per-client caps for a probe that plays a crowd: every soak client connects from
 * 127.0.0.1, so a thousand followers would otherwise share the budget of one person.
 */
export function crowdArgs(clients: number): string[] {
  // Never below the defaults (128 streams, 256 connections per client, 1,024 in all);
  // reconnects overlap the streams they replace, hence the headroom.
  return [
    '--max-streams-per-client',
    String(Math.max(128, clients * 4)),
    '--max-connections-per-client',
    String(Math.max(256, clients * 2)),
    '--max-connections',
    String(Math.max(1_024, clients * 4)),
  ];
}

/** What every probe gets: the mode, scratch space, the fake model and a host factory. */
export interface SoakContext {
  /** `--short`: the CI-sized run. */
  readonly short: boolean;
  readonly model: FakeModel;
  /** A new empty directory under the run's scratch dir. */
  dir(name: string): string;
  /** Progress line on stderr. */
  log(line: string): void;
  /** The `dsh serve` arguments that point a host at the fake model with these policies. */
  hostArgs(approvals?: Readonly<Record<string, ApprovalPolicy>>): string[];
  /** Starts `dsh serve` on the fake model; the run stops it at the end if the probe does not. */
  host(request?: HostRequest): Promise<StartedHost>;
  /** Stops every host this context started that is still running. */
  stopHosts(): Promise<void>;
}

/** Creates the context of one run under `scratch`. */
export function createSoakContext(options: {
  short: boolean;
  scratch: string;
  model: FakeModel;
}): SoakContext {
  let serial = 0;
  const hosts = new Set<HostProcess>();
  const dir = (name: string): string => {
    const path = join(options.scratch, `${String(++serial).padStart(3, '0')}-${name}`);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const hostArgs = (approvals: Readonly<Record<string, ApprovalPolicy>> = {}): string[] => {
    const config = join(dir('config'), 'config.json');
    writeFileSync(config, JSON.stringify({ approvals }));
    return [
      '--config',
      config,
      '--base-url',
      options.model.baseUrl,
      '--api-key',
      'soak',
      '--model',
      'soak-fake',
    ];
  };
  return {
    short: options.short,
    model: options.model,
    dir,
    log: (line) => process.stderr.write(`soak: ${line}\n`),
    hostArgs,
    async host(request = {}) {
      const host = await startHost({
        dataDir: request.dataDir ?? join(dir('host'), 'sessions'),
        home: dir('home'),
        cwd: request.cwd ?? dir('cwd'),
        args: [...hostArgs(request.approvals), ...(request.serveArgs ?? [])],
        ...(request.nodeArgs && { nodeArgs: request.nodeArgs }),
      });
      hosts.add(host);
      void host.exited.then(() => hosts.delete(host));
      return host;
    },
    async stopHosts() {
      await Promise.all([...hosts].map((host) => host.stop()));
    },
  };
}
