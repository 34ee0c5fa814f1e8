import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createFirstPartyTools,
  createToolRuntime,
  parseNetworkRule,
  resultText,
  type NetworkRule,
  type FirstPartyToolOptions,
  type ToolContext,
  type ToolRunResult,
} from '../src/index.js';

/** A settled call as tests look at it. */
export interface Ran {
  result: ToolRunResult;
  text: string;
  meta: unknown;
}

/** Loopback, where the tests' HTTP servers listen, as a configured `allowNetworks` entry. */
export const loopback: NetworkRule[] = ['127.0.0.0/8', '::1'].map((text) => {
  const parsed = parseNetworkRule(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.rule;
});

/** A gate that lets every call run: these tests exercise the tools, not the policy. */
export const allowEveryCall: ToolContext['gate'] = () => Promise.resolve(undefined);

/**
 * Real tools over a fresh temp folder: `cwd` for the session, `home` (not created) and
 * `spillDir` beside it, and a runtime to call them by name with JSON arguments. `web_fetch`
 * may reach loopback (the tests' servers) unless `options` say otherwise.
 */
export function createToolHarness(options: FirstPartyToolOptions = {}) {
  const root = mkdtempSync(join(tmpdir(), 'dsh-tools-'));
  const cwd = join(root, 'work');
  const home = join(root, 'home');
  const spillDir = join(root, 'spill');
  mkdirSync(cwd);
  const tools = createFirstPartyTools({ homeDir: home, allowNetworks: loopback, ...options });
  const runtime = createToolRuntime(tools.tools);
  let calls = 0;

  function context(overrides: Partial<ToolContext> = {}): ToolContext {
    return {
      cwd,
      signal: new AbortController().signal,
      sessionId: 'session-1',
      spillDir,
      callId: `call-${++calls}`,
      gate: allowEveryCall,
      ...overrides,
    };
  }

  async function run(
    name: string,
    args: unknown,
    overrides: Partial<ToolContext> = {},
    topLevel = true,
  ): Promise<Ran> {
    const raw = typeof args === 'string' ? args : JSON.stringify(args);
    const result = await runtime.run(name, raw, context(overrides), { topLevel });
    return {
      result,
      text: resultText(result),
      meta: result.metaJson === '' ? undefined : JSON.parse(result.metaJson),
    };
  }

  return {
    root,
    cwd,
    home,
    spillDir,
    runtime,
    tools,
    context,
    run,
    async dispose() {
      await tools.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The harness type, for `let h: ToolHarness` in tests. */
export type ToolHarness = ReturnType<typeof createToolHarness>;
