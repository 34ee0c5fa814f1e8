import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { driveTurn } from '../lib/agent-turn.js';
import { sessionClient, type SessionClient } from '../lib/clients.js';
import { directive } from '../lib/fake-model.js';
import { samplePage } from '../lib/page-sampler.js';
import type { Probe, RowResult } from '../lib/probe.js';
import type { SoakContext, StartedHost } from '../lib/soak-context.js';
import { formatStats, type LatencyStats } from '../lib/stats.js';
import { attacks, policyHosts, type Attack, type PolicyHost } from './tool-attacks.js';

/** The session every host is seeded with, paged during each attack. */
const pagedSession = 'showcase';
/** The host's heap cap, so an allocation bomb ends in seconds instead of eating the machine. */
const heapCapMb = 512;
/** The median Page during an attack must stay within this. */
const pageLimitMs = 50;
/**
 * No Page during an attack may take longer than this. A loop held by a tool shows as
 * Pages of hundreds of ms or seconds; single Pages of 50-150 ms happen on a 2-core machine
 * during any turn's own start (session creation, fsync, a spawn), so they are reported.
 */
const pageCeilingMs = 250;
/** A Page slower than this is a stalled host, whatever the machine's load. */
const stallMs = 1_000;

/**
 * Every hostile tool call of `tool-attacks.ts` through the real agent runtime: a host on
 * the fake model, one fresh session and cwd per attack, the call asked for by the model,
 * approvals answered as planned, Cancel when the window is over. Meanwhile another
 * session is paged every 20 ms. A host that crashes or stops answering is replaced.
 */
export const hostileTools: Probe = {
  name: 'tools',
  short: true,
  async run(ctx) {
    const rows: RowResult[] = [];
    // Latency rows count against the exit status only when an idle host meets the limit.
    let quiet = true;
    const start = async (kind: PolicyHost): Promise<StartedHost> => {
      const host = await ctx.host({
        approvals: policyHosts[kind],
        nodeArgs: [`--max-old-space-size=${heapCapMb}`],
      });
      await warmUp(ctx, host);
      return host;
    };
    for (const kind of ['default', 'deny', 'ask'] as PolicyHost[]) {
      let host: StartedHost | undefined;
      if (kind === 'default') {
        host = await start(kind);
        const rest = await pageAtRest(host, ctx.short ? 3_000 : 6_000);
        quiet = rest.failed === 0;
        rows.push(rest);
      }
      for (const attack of attacks.filter((a) => a.host === kind)) {
        host ??= await start(kind);
        ctx.log(`tools: ${attack.name}`);
        const { harm, latency, healthy } = await runAttack(ctx, host, attack);
        rows.push(harm, { ...latency, required: quiet });
        if (!healthy) {
          await host.kill9();
          host = undefined;
        }
      }
      await host?.stop();
    }
    return rows;
  },
};

/** One benign turn with a tool call and a few Pages, so first-use costs are not measured. */
async function warmUp(ctx: SoakContext, host: StartedHost): Promise<void> {
  const client = sessionClient(host.url, 'connect-json');
  const paging = sessionClient(host.url, 'connect-binary');
  for (let i = 0; i < 10; i++) await paging.page({ sessionId: pagedSession, maxMessages: 5 });
  const created = await client.createSession({ cwd: ctx.dir('warm-up') });
  const outcome = await driveTurn(client, created.session?.id ?? '', {
    prompt: directive({ tool: 'glob', args: { pattern: '*' } }),
    answer: 'deny',
    windowMs: 10_000,
  });
  if (!outcome.events.some((e) => e.payload.case === 'toolResult')) {
    throw new Error('warm-up: the fake model did not get a glob call run');
  }
}

/** The noise floor: Page latency on the same host with no attack running. */
async function pageAtRest(host: StartedHost, ms: number): Promise<RowResult> {
  const sampler = samplePage(sessionClient(host.url, 'connect-binary'), pagedSession, {
    limitMs: pageLimitMs,
  });
  await sleep(ms);
  const pages = await sampler.stop();
  const failed = latencyFailures(pages.stats, pages.samples);
  return {
    probe: 'tool: none (Page at rest: the noise floor)',
    tried: pages.samples.length,
    failed,
    lost: null,
    required: false,
    note:
      `no attack running; Page ${formatStats(pages.stats)}, ${pages.slow}/${pages.samples.length} over ${pageLimitMs} ms` +
      (failed > 0
        ? `; the machine is too busy to judge ${pageLimitMs} ms: Page rows do not gate this run`
        : ''),
  };
}

async function runAttack(
  ctx: SoakContext,
  host: StartedHost,
  attack: Attack,
): Promise<{ harm: RowResult; latency: RowResult; healthy: boolean }> {
  const base = ctx.dir('attack');
  const cwd = join(base, 'cwd');
  const outside = join(base, 'outside');
  mkdirSync(cwd);
  mkdirSync(outside);
  const client: SessionClient = sessionClient(host.url, 'connect-json');
  const sampler = samplePage(sessionClient(host.url, 'connect-binary'), pagedSession, {
    limitMs: pageLimitMs,
  });
  const armed = attack.arm({ cwd, outside, hostUrl: host.url, short: ctx.short });
  const created = await client.createSession({ cwd }, { timeoutMs: 10_000 });
  const issuedBefore = ctx.model.issued(armed.tool);
  const outcome = await driveTurn(client, created.session?.id ?? '', {
    prompt: directive({ tool: armed.tool, args: armed.args }),
    answer: attack.answer,
    windowMs: armed.windowMs,
    alive: () => host.alive(),
    ...(armed.cancelWhen && { cancelWhen: armed.cancelWhen }),
  });
  const pages = await sampler.stop();
  await sleep(500);
  const effect = armed.harm(outcome);
  const crashed = !host.alive();
  const stalled = pages.samples.filter((ms) => ms > stallMs).length > 0;
  // An attack the model never made proves nothing: that is a failure of the probe.
  const ran = ctx.model.issued(armed.tool) > issuedBefore;
  const problems = [
    !ran && `the model never called ${armed.tool}: the attack did not run`,
    effect.harmed && effect.note,
    crashed && `host crashed (${lastLine(host.output())})`,
    outcome.stuck && 'host stopped answering (Cancel timed out; killed)',
    stalled && `a Page waited ${Math.round(pages.stats.max)} ms`,
  ].filter((p): p is string => typeof p === 'string');
  const state = outcome.ended
    ? `turn ended in ${Math.round(outcome.ms)} ms${outcome.cancelled ? ' after Cancel' : ''}`
    : 'turn did not end';
  const name = `tool: ${attack.name}`;
  return {
    harm: {
      probe: name,
      tried: 1,
      failed: problems.length,
      lost: null,
      required: true,
      note: [
        ...(problems.length > 0 ? problems : [effect.note]),
        `${outcome.approvals} approval(s) asked`,
        state,
      ].join('; '),
    },
    latency: {
      probe: `${name}: Page within ${pageLimitMs} ms`,
      tried: pages.samples.length,
      failed: latencyFailures(pages.stats, pages.samples),
      lost: null,
      required: true,
      note:
        `Page on another session every 20 ms: ${formatStats(pages.stats)}, ` +
        `${pages.slow}/${pages.samples.length} over ${pageLimitMs} ms, ` +
        `${pages.samples.filter((ms) => ms > pageCeilingMs).length} over ${pageCeilingMs} ms`,
    },
    healthy: !crashed && !outcome.stuck,
  };
}

/** A median over the limit counts once, and every Page over the ceiling once. */
function latencyFailures(stats: LatencyStats, samples: readonly number[]): number {
  return (stats.p50 > pageLimitMs ? 1 : 0) + samples.filter((ms) => ms > pageCeilingMs).length;
}

function lastLine(output: string): string {
  const lines = output.trim().split('\n');
  const fatal = lines.find((l) => /FATAL|heap|out of memory/i.test(l));
  return (fatal ?? lines.at(-1) ?? '').slice(0, 120);
}
