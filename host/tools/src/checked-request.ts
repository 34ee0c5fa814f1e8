import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { errorCodes } from '@dsh/card-models/contract';
import { addressVerdict, type NetworkRule } from './network-rules.js';
import { ToolFailure } from './tool-failure.js';

/** What one GET may reach: addresses beyond the public internet only through `rules`. */
export interface RequestPolicy {
  readonly rules: readonly NetworkRule[];
  /** Exact URLs fetched whatever address they resolve to. */
  readonly trustedUrls: () => readonly string[];
}

/**
 * One HTTP(S) GET whose connection goes only to an address the policy allows. Host names
 * are resolved by a lookup that checks every address it returns and hands the socket only
 * checked ones, so a second DNS answer (rebinding) cannot switch the target after the
 * check. An IP literal is checked before connecting. A refused address fails with `denied`.
 */
export function checkedGet(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  policy: RequestPolicy,
): Promise<IncomingMessage> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const trusted = policy.trustedUrls().includes(url.href);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!trusted && isIP(host) !== 0) {
    const verdict = addressVerdict(host, port, policy.rules);
    if (!verdict.allowed) return Promise.reject(deniedAddress(url, verdict, port));
  }
  const lookup: LookupFunction | undefined = trusted
    ? undefined
    : (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (error, found: LookupAddress[]) => {
          if (error) return callback(error, '', 0);
          const allowed = found.filter(
            (a) => addressVerdict(a.address, port, policy.rules).allowed,
          );
          const refused = found.find((a) => !allowed.includes(a));
          if (allowed.length === 0) {
            const first = refused?.address ?? hostname;
            const verdict = addressVerdict(first, port, policy.rules);
            const failure = deniedAddress(
              url,
              verdict.allowed ? { kind: 'no address', address: first } : verdict,
              port,
            );
            return callback(Object.assign(new Error(failure.message), { failure }), '', 0);
          }
          if (options.all) return callback(null, allowed);
          const [one] = allowed;
          callback(null, one?.address ?? '', one?.family ?? 4);
        });
      };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.get(url, { headers, signal, agent: false, lookup }, resolve);
    request.on('error', (error: Error & { failure?: ToolFailure }) =>
      reject(error.failure ?? error),
    );
  });
}

function deniedAddress(
  url: URL,
  { kind, address }: { kind: string; address: string },
  port: number,
): ToolFailure {
  const entry = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  return new ToolFailure(
    errorCodes.denied,
    `web_fetch does not connect to ${address} (${kind}) for ${url.href}: only public addresses are allowed by default. To allow it, add "${entry}" to "allowNetworks" in the dsh config file.`,
  );
}
