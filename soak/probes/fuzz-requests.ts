import fc from 'fast-check';
import type { CallOptions } from '@connectrpc/connect';
import { SessionService } from '@dsh/gen/service';
import { protocols, sessionClient, type Protocol } from '../lib/clients.js';
import { samplePage } from '../lib/page-sampler.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { h2Connection, postH1, envelope } from '../lib/raw-http.js';
import { errorCode } from '../lib/read-session.js';
import { rawBodyArb, requestArbs } from '../lib/request-arbitraries.js';
import type { SoakContext, StartedHost } from '../lib/soak-context.js';
import { formatStats } from '../lib/stats.js';

/** Answers that mean the host did not understand its own failure. */
const badCodes = new Set(['internal', 'unknown', 'timeout', 'not a ConnectError']);
/** A well-formed Page slower than this during the fuzz means the host is stuck. */
const stuckMs = 2_000;

type Method = keyof typeof SessionService.method;
const methods = Object.keys(SessionService.method) as Method[];

/**
 * fast-check requests for every SessionService RPC over Connect JSON, Connect binary and
 * gRPC through the generated client, then raw garbage bodies under every content type.
 * Counts `internal`/`unknown` answers, hangs and crashes, while a well-formed Page on
 * another session is timed throughout.
 */
export const fuzzRequests: Probe = {
  name: 'fuzz',
  short: true,
  async run(ctx) {
    const perMethod = ctx.short ? 12 : 80;
    const cwd = ctx.dir('cwd');
    let host = await ctx.host({ cwd });
    let crashes = 0;
    const ensureHost = async (): Promise<StartedHost> => {
      if (!host.alive()) {
        crashes++;
        host = await ctx.host({ cwd });
      }
      return host;
    };
    const setup = sessionClient(host.url);
    const known = ['showcase', 'long-paging'];
    for (let i = 0; i < 2; i++) known.push((await setup.createSession({ cwd })).session?.id ?? '');
    const arbs = requestArbs(known, [cwd], ['showcase']);
    const sampler = samplePage(sessionClient(host.url, 'connect-binary'), 'showcase', {
      limitMs: stuckMs,
    });
    const rows: RowResult[] = [];
    for (const [index, protocol] of protocols.entries()) {
      const codes = new Map<string, number>();
      let sent = 0;
      for (const method of methods) {
        const samples = fc.sample(arbs[method] as fc.Arbitrary<unknown>, {
          numRuns: perMethod,
          seed: 7 + index,
        });
        await inParallel(samples, 4, async (request) => {
          const code = await call((await ensureHost()).url, protocol, method, request);
          sent++;
          codes.set(`${method} ${code}`, (codes.get(`${method} ${code}`) ?? 0) + 1);
        });
      }
      rows.push(fuzzRow(`fuzz: typed requests, ${protocol}`, sent, codes, crashes));
      crashes = 0;
    }
    rows.push(await rawGarbage(ctx, ensureHost, perMethod, () => crashes));
    const pages = await sampler.stop();
    rows.push({
      probe: 'fuzz: a well-formed Page answers meanwhile',
      tried: pages.samples.length,
      failed: pages.slow,
      lost: null,
      required: true,
      note: `Page of another session during the fuzz: ${formatStats(pages.stats)}, ${pages.errors} errors, ${pages.slow} failed or over ${stuckMs} ms`,
    });
    await host.stop();
    return rows;
  },
};

function fuzzRow(
  probe: string,
  sent: number,
  codes: ReadonlyMap<string, number>,
  crashes: number,
): RowResult {
  const bad = [...codes].filter(([key]) => badCodes.has(key.slice(key.indexOf(' ') + 1)));
  const badCount = bad.reduce((n, [, c]) => n + c, 0);
  const byCode = new Map<string, number>();
  for (const [key, count] of codes) {
    const code = key.slice(key.indexOf(' ') + 1);
    byCode.set(code, (byCode.get(code) ?? 0) + count);
  }
  const histogram = [...byCode].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${n} ${code}`);
  return {
    probe,
    tried: sent,
    failed: badCount + crashes,
    lost: null,
    required: true,
    note:
      `answers: ${histogram.join(', ')}; ${crashes} crashes` +
      (bad.length > 0
        ? `; bad: ${bad
            .slice(0, 4)
            .map(([k, n]) => `${n}x ${k}`)
            .join(', ')}`
        : ''),
  };
}

/** Calls one method; a stream is read for three frames or 2 s. Returns the answer's code. */
async function call(
  url: string,
  protocol: Protocol,
  method: Method,
  request: unknown,
): Promise<string> {
  const client = clientFor(url, protocol) as unknown as Record<
    string,
    (req: unknown, options: CallOptions) => Promise<unknown> | AsyncIterable<unknown>
  >;
  const fn = client[method]!.bind(client);
  const streaming = SessionService.method[method].methodKind === 'server_streaming';
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), streaming ? 2_000 : 10_000);
  try {
    if (!streaming) {
      await fn(request, { signal: abort.signal });
      return 'ok';
    }
    let frames = 0;
    for await (const frame of fn(request, { signal: abort.signal }) as AsyncIterable<unknown>) {
      void frame;
      if (++frames >= 3) break;
    }
    return 'ok';
  } catch (error) {
    if (abort.signal.aborted) return streaming ? 'ok (stream open)' : 'timeout';
    return errorCode(error);
  } finally {
    clearTimeout(timer);
  }
}

const clients = new Map<string, ReturnType<typeof sessionClient>>();
function clientFor(url: string, protocol: Protocol) {
  const key = `${url} ${protocol}`;
  let client = clients.get(key);
  if (!client) clients.set(key, (client = sessionClient(url, protocol)));
  return client;
}

const h1Types = [
  'application/json',
  'application/proto',
  'application/connect+json',
  'application/connect+proto',
  'application/grpc-web+proto',
  'text/plain',
];

/** Random bodies under every content type to every RPC path, over HTTP/1.1 and h2c gRPC. */
async function rawGarbage(
  ctx: SoakContext,
  ensureHost: () => Promise<StartedHost>,
  perMethod: number,
  crashes: () => number,
): Promise<RowResult> {
  const codes = new Map<string, number>();
  const bodies = fc.sample(rawBodyArb, { numRuns: perMethod, seed: 11 });
  let sent = 0;
  const count = (key: string): void => void codes.set(key, (codes.get(key) ?? 0) + 1);
  let h2url = '';
  let h2 = h2Connection((await ensureHost()).url);
  for (const method of methods) {
    const path = `/${SessionService.typeName}/${SessionService.method[method].name}`;
    await inParallel(bodies, 4, async (body, i) => {
      const url = (await ensureHost()).url;
      if (url !== h2url) {
        h2.close();
        h2 = h2Connection(url);
        h2url = url;
      }
      const type = h1Types[i % h1Types.length]!;
      const wrapped = type.includes('+') && i % 2 === 0 ? envelope(body) : body;
      const h1 = await postH1(
        url,
        path,
        { 'content-type': type, 'connect-protocol-version': '1' },
        wrapped,
        3_000,
      );
      count(`${method} ${h1.code === 'http 500' ? 'internal' : h1.code}`);
      const grpc = await h2.post(
        path,
        { 'content-type': 'application/grpc', te: 'trailers' },
        i % 2 ? envelope(body) : body,
        3_000,
      );
      count(`${method} ${grpc.code}`);
      sent += 2;
    });
  }
  h2.close();
  ctx.log(`fuzz: ${sent} raw requests`);
  return fuzzRow('fuzz: raw garbage bodies, every content type', sent, codes, crashes());
}

async function inParallel<T>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
}
