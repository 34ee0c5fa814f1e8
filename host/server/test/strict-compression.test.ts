import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerCompression, strictCompressions } from '../src/strict-compression.js';
import { conversation, startTestHost, type TestHost } from './test-host.js';

const sample = Buffer.from(
  JSON.stringify({
    events: Array.from({ length: 500 }, (_, i) => ({ seq: i, text: `line ${i % 7}` })),
  }),
);

describe('strictCompressions', () => {
  it.each([
    ['gzip', gzipSync(sample, { level: answerCompression.gzipLevel })],
    [
      'br',
      brotliCompressSync(sample, {
        params: { [constants.BROTLI_PARAM_QUALITY]: answerCompression.brotliQuality },
      }),
    ],
  ])('%s compresses at the host level and reads back what it wrote', async (name, expected) => {
    const compression = strictCompressions.find((c) => c.name === name)!;
    const compressed = await compression.compress(sample);
    expect(Buffer.from(compressed)).toEqual(expected);
    expect(Buffer.from(await compression.decompress(compressed, 1 << 20))).toEqual(sample);
  });
});

describe('an answer to a client that asks for brotli', () => {
  let host: TestHost;
  let sessionId: string;
  beforeAll(async () => {
    host = await startTestHost();
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append(conversation(40));
    sessionId = journal.header.sessionId;
  });
  afterAll(() => host.close());

  it('is brotli the client can read', async () => {
    const { encoding, body } = await new Promise<{ encoding: string; body: Buffer }>(
      (resolve, reject) => {
        const req = request(`${host.server.url}/dsh.session.v1.SessionService/Page`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'connect-protocol-version': '1',
            'accept-encoding': 'br',
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({
              encoding: String(res.headers['content-encoding']),
              body: Buffer.concat(parts),
            }),
          );
        });
        req.end(JSON.stringify({ sessionId }));
      },
    );
    expect(encoding).toBe('br');
    const page = JSON.parse(brotliDecompressSync(body).toString()) as { events: unknown[] };
    expect(page.events.length).toBeGreaterThan(100);
  });
});
