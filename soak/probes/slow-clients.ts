import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionService } from '@dsh/gen/service';
import { sessionClient } from '../lib/clients.js';
import { samplePage } from '../lib/page-sampler.js';
import type { Probe, RowResult } from '../lib/probe.js';
import { postH1 } from '../lib/raw-http.js';
import { formatStats, latencyStats } from '../lib/stats.js';

/** A request slower than this while slow clients hold connections means the host is stuck. */
const stuckMs = 1_000;
const pagePath = `/${SessionService.typeName}/${SessionService.method.page.name}`;

/** One slow client: what it sends first, and what it trickles every second after. */
interface SlowKind {
  readonly name: string;
  readonly first: string;
  readonly trickle?: string;
}

const kinds: readonly SlowKind[] = [
  { name: 'idle connection, nothing sent', first: '' },
  {
    name: 'partial headers, one header a second',
    first: `POST ${pagePath} HTTP/1.1\r\nHost: 127.0.0.1\r\n`,
    trickle: 'X-Slow: 1\r\n',
  },
  {
    name: 'trickled body, a byte a second',
    first: `POST ${pagePath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    trickle: ' ',
  },
  { name: 'partial HTTP/2 preface', first: 'PRI * HTTP/2.0\r\n' },
  { name: 'HTTP/2 preface, then nothing', first: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' },
];

/**
 * Slowloris: many connections per kind that never finish a request, held while
 * well-formed requests (each on a fresh connection, and Page on a kept one) must still
 * answer. In the full run they are held for 40 s and every one the host has not closed
 * by then counts as a failure; `--short` judges only that the host keeps answering.
 */
export const slowClients: Probe = {
  name: 'slowloris',
  short: true,
  async run(ctx) {
    const perKind = ctx.short ? 30 : 200;
    const holdMs = ctx.short ? 4_000 : 40_000;
    const host = await ctx.host();
    const rows: RowResult[] = [];
    const held = kinds.map((kind) => ({ kind, sockets: openSlow(host.url, kind, perKind) }));
    const pages = samplePage(sessionClient(host.url, 'connect-binary'), 'showcase', {
      limitMs: stuckMs,
    });
    const fresh: number[] = [];
    let freshFailed = 0;
    const until = Date.now() + holdMs;
    while (Date.now() < until) {
      const answer = await postH1(
        host.url,
        pagePath,
        { 'content-type': 'application/json' },
        Buffer.from('{"sessionId":"showcase","maxMessages":1}'),
        5_000,
      );
      fresh.push(answer.ms);
      if (answer.code !== 'ok' || answer.ms > stuckMs) freshFailed++;
      await sleep(200);
    }
    const paged = await pages.stop();
    for (const { kind, sockets } of held) {
      const open = sockets.filter((s) => s.open).length;
      const judged = !ctx.short;
      rows.push({
        probe: `slow client: ${kind.name}`,
        tried: perKind,
        failed: judged ? open : 0,
        lost: null,
        required: true,
        note: `${perKind - open}/${perKind} closed by the host within ${holdMs / 1000} s${judged ? '' : ' (not judged in --short)'}`,
      });
      for (const s of sockets) s.close();
    }
    const alive = host.alive();
    await host.stop();
    rows.push({
      probe: 'slow clients: well-formed requests answer meanwhile',
      tried: fresh.length + paged.samples.length,
      failed: freshFailed + paged.slow + (alive ? 0 : 1),
      lost: null,
      required: true,
      note:
        `${kinds.length * perKind} slow connections held; Page on a fresh connection ${formatStats(latencyStats(fresh))}, ${freshFailed} failed or over ${stuckMs} ms; ` +
        `Page on a kept connection ${formatStats(paged.stats)}, ${paged.slow} failed or over ${stuckMs} ms${alive ? '' : '; the host died'}`,
    });
    return rows;
  },
};

/**
 * Slow clients connect from their own loopback address, as an attacker would from its own
 * machine: the per-client caps then protect the well-formed client on 127.0.0.1 instead of
 * sharing one budget with the attack.
 */
const attackerAddress = '127.0.0.2';

interface SlowSocket {
  readonly open: boolean;
  close(): void;
}

function openSlow(url: string, kind: SlowKind, count: number): SlowSocket[] {
  const { hostname, port } = new URL(url);
  return Array.from({ length: count }, () => {
    let open = true;
    const socket: Socket = connect({
      host: hostname,
      port: Number(port),
      localAddress: attackerAddress,
    });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.on('close', () => {
      open = false;
      clearInterval(timer);
    });
    socket.once('connect', () => {
      if (kind.first !== '') socket.write(kind.first);
    });
    const timer = setInterval(() => {
      if (kind.trickle && open && socket.writable) socket.write(kind.trickle);
    }, 1_000);
    return {
      get open() {
        return open;
      },
      close() {
        clearInterval(timer);
        socket.destroy();
      },
    };
  });
}
