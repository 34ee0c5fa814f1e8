import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { noAllowedPaths, type AllowedPaths, type ApprovalPolicy } from '@dsh/agent';
import { defaultBaseUrl, defaultModel, type ModelConfig } from '@dsh/providers';
import type { ModelPrice } from '@dsh/journal';
import { parseNetworkRule, type NetworkRule } from '@dsh/tools';

/** The host's agent settings after merging flags, environment, config file and defaults. */
export interface AgentConfig {
  readonly model: ModelConfig;
  /** Per-tool policy overrides from the config file's `approvals` object. */
  readonly approvals: Readonly<Record<string, ApprovalPolicy>>;
  /** Folders file tools use without asking, from the config file's `allowPaths` object. */
  readonly allowPaths: AllowedPaths;
  /**
   * Addresses `web_fetch` may reach although they are loopback, private, link-local...,
   * from the config file's `allowNetworks` list.
   */
  readonly allowNetworks: readonly NetworkRule[];
  /**
   * Per-model settings from the config file's `models` object: a context budget in tokens
   * and a price (USD per million tokens), by the name the provider gives the model.
   */
  readonly models: ReadonlyMap<string, ModelSettings>;
  /** `--context-budget`: the budget of every model, over the config file and defaults. */
  readonly contextBudget: number | undefined;
  /** The config file that was read, or undefined when there was none. */
  readonly configPath: string | undefined;
}

/** What the config file's `models` object says about one model. */
export interface ModelSettings {
  readonly contextBudget?: number;
  readonly price?: ModelPrice;
}

/** Command-line flags that bear on the model. */
export interface ConfigFlags {
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
  /** A config file to read instead of `~/.dsh/config.json` (it must exist). */
  readonly config?: string;
  /** The context budget of every model, in tokens. */
  readonly contextBudget?: number;
}

/**
 * Merges settings with precedence flag > env (`DSH_BASE_URL`, `DSH_MODEL`, `DSH_API_KEY`) >
 * config file > default. With no key and no base URL anywhere, or model `demo`, the offline
 * demo model is chosen. Returns an error message instead of throwing on a bad file.
 */
export async function loadAgentConfig(
  flags: ConfigFlags,
  env: Readonly<Record<string, string | undefined>> = process.env,
  home = homedir(),
): Promise<{ config: AgentConfig } | { error: string }> {
  const explicit = flags.config !== undefined;
  const path = flags.config ?? join(home, '.dsh', 'config.json');
  let file: Record<string, unknown> = {};
  let configPath: string | undefined;
  try {
    const text = await readFile(path, 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return {
        error: `${path}: the config file must hold a JSON object like {"model": "deepseek-chat"}.`,
      };
    }
    file = parsed as Record<string, unknown>;
    configPath = path;
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) file = {};
    else if (code === 'ENOENT')
      return { error: `${path}: no such config file. Check the --config path.` };
    else return { error: `${path}: cannot read the config file: ${(cause as Error).message}` };
  }
  const fromFile = (key: string): string | undefined => {
    const value = file[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const pick = (flag: string | undefined, envName: string, key: string): string | undefined =>
    nonEmpty(flag) ?? nonEmpty(env[envName]) ?? fromFile(key);

  const baseUrl = pick(flags.baseUrl, 'DSH_BASE_URL', 'baseUrl');
  const model = pick(flags.model, 'DSH_MODEL', 'model');
  const apiKey = pick(flags.apiKey, 'DSH_API_KEY', 'apiKey');
  const approvals = parseApprovals(file['approvals']);
  if ('error' in approvals) return { error: `${path}: ${approvals.error}` };
  const allowPaths = parseAllowPaths(file['allowPaths'], home);
  if ('error' in allowPaths) return { error: `${path}: ${allowPaths.error}` };
  const allowNetworks = parseAllowNetworks(file['allowNetworks']);
  if ('error' in allowNetworks) return { error: `${path}: ${allowNetworks.error}` };
  const models = parseModels(file['models']);
  if ('error' in models) return { error: `${path}: ${models.error}` };

  const useDemo = model === 'demo' || (apiKey === undefined && baseUrl === undefined);
  const modelConfig: ModelConfig = useDemo
    ? { kind: 'demo', model: 'demo' }
    : { kind: 'openai', baseUrl: baseUrl ?? defaultBaseUrl, model: model ?? defaultModel, apiKey };
  return {
    config: {
      model: modelConfig,
      approvals: approvals.value,
      allowPaths: allowPaths.value,
      allowNetworks: allowNetworks.value,
      models: models.value,
      contextBudget: flags.contextBudget,
      configPath,
    },
  };
}

function parseApprovals(
  raw: unknown,
): { value: Record<string, ApprovalPolicy> } | { error: string } {
  if (raw === undefined) return { value: {} };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { error: '"approvals" must be an object like {"bash": "allow"}.' };
  }
  const value: Record<string, ApprovalPolicy> = {};
  for (const [tool, policy] of Object.entries(raw)) {
    if (policy !== 'allow' && policy !== 'ask' && policy !== 'deny') {
      return {
        error: `"approvals.${tool}" must be "allow", "ask" or "deny", not ${JSON.stringify(policy)}.`,
      };
    }
    value[tool] = policy;
  }
  return { value };
}

function parseAllowPaths(raw: unknown, home: string): { value: AllowedPaths } | { error: string } {
  if (raw === undefined) return { value: noAllowedPaths };
  const shape =
    '"allowPaths" must be an object like {"read": ["~/notes"], "write": ["/tmp/scratch"]}.';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: shape };
  const lists: { read: string[]; write: string[] } = { read: [], write: [] };
  for (const [key, entries] of Object.entries(raw)) {
    if (key !== 'read' && key !== 'write') {
      return { error: `"allowPaths.${key}" is not a setting: use "read" or "write". ${shape}` };
    }
    if (!Array.isArray(entries)) return { error: `"allowPaths.${key}" must be a list. ${shape}` };
    for (const entry of entries) {
      const path = typeof entry === 'string' ? expandHome(entry, home) : undefined;
      if (path === undefined || !isAbsolute(path)) {
        return {
          error: `"allowPaths.${key}" entries must be absolute folders or start with "~/", not ${JSON.stringify(entry)}.`,
        };
      }
      lists[key].push(resolve(path));
    }
  }
  return { value: lists };
}

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

function parseAllowNetworks(raw: unknown): { value: NetworkRule[] } | { error: string } {
  if (raw === undefined) return { value: [] };
  if (!Array.isArray(raw)) {
    return { error: '"allowNetworks" must be a list like ["127.0.0.1:8080", "10.0.0.0/8"].' };
  }
  const rules: NetworkRule[] = [];
  for (const entry of raw) {
    const parsed =
      typeof entry === 'string' ? parseNetworkRule(entry) : { error: 'it is not a string' };
    if ('error' in parsed) {
      return {
        error: `"allowNetworks" entry ${JSON.stringify(entry)} is not an address, CIDR range or address:port (${parsed.error}).`,
      };
    }
    rules.push(parsed.rule);
  }
  return { value: rules };
}

const modelsShape =
  '"models" must be an object like {"deepseek-chat": {"contextBudget": 100000, "price": ' +
  '{"input": 0.27, "output": 1.1, "cacheRead": 0.07, "cacheWrite": 0}}}.';

function parseModels(raw: unknown): { value: Map<string, ModelSettings> } | { error: string } {
  const value = new Map<string, ModelSettings>();
  if (raw === undefined) return { value };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: modelsShape };
  for (const [model, entry] of Object.entries(raw)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return { error: `"models.${model}" must be an object. ${modelsShape}` };
    }
    const { contextBudget, price, ...rest } = entry as Record<string, unknown>;
    const unknownKey = Object.keys(rest)[0];
    if (unknownKey !== undefined) {
      return {
        error: `"models.${model}.${unknownKey}" is not a setting: use "contextBudget" or "price".`,
      };
    }
    if (
      contextBudget !== undefined &&
      (typeof contextBudget !== 'number' || !Number.isInteger(contextBudget) || contextBudget < 1)
    ) {
      return {
        error: `"models.${model}.contextBudget" must be a whole number of tokens of at least 1, not ${JSON.stringify(contextBudget)}.`,
      };
    }
    const parsedPrice = price === undefined ? undefined : parsePrice(model, price);
    if (parsedPrice !== undefined && 'error' in parsedPrice) return parsedPrice;
    value.set(model, {
      ...(contextBudget !== undefined && { contextBudget: contextBudget as number }),
      ...(parsedPrice !== undefined && { price: parsedPrice.value }),
    });
  }
  return { value };
}

function parsePrice(model: string, raw: unknown): { value: ModelPrice } | { error: string } {
  const shape = `"models.${model}.price" must be an object like {"input": 0.27, "output": 1.1, "cacheRead": 0.07, "cacheWrite": 0} (USD per million tokens).`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: shape };
  const fields = raw as Record<string, unknown>;
  const read = (key: string): number | undefined => {
    const v = fields[key] ?? 0;
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  const input = read('input');
  const output = read('output');
  const cacheRead = read('cacheRead');
  const cacheWrite = read('cacheWrite');
  if (
    input === undefined ||
    output === undefined ||
    cacheRead === undefined ||
    cacheWrite === undefined
  ) {
    return { error: shape };
  }
  return { value: { input, output, cacheRead, cacheWrite } };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
