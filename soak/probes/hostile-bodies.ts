import { gzipSync } from 'node:zlib';
import { SessionService } from '@dsh/gen/service';
import type { Probe, RowResult } from '../lib/probe.js';
import { envelope, h2Connection, postH1, type RawAnswer } from '../lib/raw-http.js';
import type { StartedHost } from '../lib/soak-context.js';

/** The host's request limit (README.server.md): 1 MiB per message. */
const limitBytes = 1024 * 1024;
/** RSS growth (MiB) one hostile body may cause. */
const rssBudgetMb = 128;
/** A refusal slower than this means the host read or inflated the whole thing first. */
const slowMs = 10_000;

const path = (method: keyof typeof SessionService.method): string =>
  `/${SessionService.typeName}/${SessionService.method[method].name}`;

/** `size` bytes of zeros gzipped: about 1,000 times smaller than what they inflate to. */
function gzipBomb(size: number): Buffer {
  return gzipSync(Buffer.alloc(size), { level: 9 });
}

async function* stream(total: number, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  const chunk = Buffer.alloc(piece, 0x20);
  yield Buffer.from('{"sessionId":"');
  for (let sent = 0; sent < total; sent += piece) yield chunk;
  yield Buffer.from('"}');
}

interface Case {
  readonly name: string;
  send(url: string): Promise<RawAnswer>;
}

/**
 * Oversized and compressed request bodies: a message over the 1 MiB limit, a 64 MiB body
 * streamed without a length, and gzip bombs (256 MiB of zeros in ~250 KB) over Connect
 * unary, Connect streaming and gRPC. Each must be refused (`resource_exhausted` or
 * `invalid_argument`) quickly, without inflating it, and the host must live on.
 */
export const hostileBodies: Probe = {
  name: 'bodies',
  short: true,
  async run(ctx) {
    const bomb = gzipBomb(256 * 1024 * 1024);
    const json = { 'content-type': 'application/json', 'connect-protocol-version': '1' };
    const cases: Case[] = [
      {
        name: '2 MiB Connect JSON message',
        send: (url) =>
          postH1(
            url,
            path('page'),
            json,
            Buffer.from(JSON.stringify({ sessionId: 'x'.repeat(2 * limitBytes) })),
          ),
      },
      {
        name: '64 MiB body streamed without a length',
        send: (url) => postH1(url, path('page'), json, stream(64 * limitBytes), 30_000),
      },
      {
        name: 'gzip bomb, Connect unary',
        send: (url) =>
          postH1(url, path('page'), { ...json, 'content-encoding': 'gzip' }, bomb, 30_000),
      },
      {
        name: 'gzip bomb, Connect streaming (Follow)',
        send: (url) =>
          postH1(
            url,
            path('follow'),
            {
              'content-type': 'application/connect+json',
              'connect-protocol-version': '1',
              'connect-content-encoding': 'gzip',
            },
            envelope(bomb, 1),
            30_000,
          ),
      },
      {
        name: 'gzip bomb, gRPC',
        send: async (url) => {
          const h2 = h2Connection(url);
          try {
            return await h2.post(
              path('page'),
              { 'content-type': 'application/grpc', te: 'trailers', 'grpc-encoding': 'gzip' },
              envelope(bomb, 1),
              30_000,
            );
          } finally {
            h2.close();
          }
        },
      },
      {
        name: '2 MiB gRPC message',
        send: async (url) => {
          const h2 = h2Connection(url);
          try {
            return await h2.post(
              path('page'),
              { 'content-type': 'application/grpc', te: 'trailers' },
              envelope(Buffer.alloc(2 * limitBytes, 0x0a)),
              30_000,
            );
          } finally {
            h2.close();
          }
        },
      },
    ];
    let host: StartedHost = await ctx.host();
    const rows: RowResult[] = [];
    for (const test of cases) {
      if (!host.alive()) host = await ctx.host();
      const before = host.rssKb() ?? 0;
      const answer = await test.send(host.url);
      const peak = host.rssKb() ?? 0;
      const alive = host.alive();
      const growthMb = (peak - before) / 1024;
      const refused = answer.code === 'resource_exhausted' || answer.code === 'invalid_argument';
      const problems = [
        !refused && `answered ${answer.code}`,
        answer.ms > slowMs && `took ${Math.round(answer.ms)} ms`,
        growthMb > rssBudgetMb && `RSS +${growthMb.toFixed(0)} MiB`,
        !alive && 'the host died',
      ].filter((p): p is string => typeof p === 'string');
      rows.push({
        probe: `body: ${test.name}`,
        tried: 1,
        failed: problems.length,
        lost: null,
        required: true,
        note: `${answer.code} in ${Math.round(answer.ms)} ms; RSS ${(before / 1024).toFixed(0)} -> ${(peak / 1024).toFixed(0)} MiB${alive ? '' : '; the host died'}`,
      });
    }
    await host.stop();
    return rows;
  },
};
