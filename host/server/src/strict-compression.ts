import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Code, ConnectError } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip } from '@connectrpc/connect-node';
import type { Compression } from '@connectrpc/connect/protocol';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * How the host compresses answers: gzip at level 1 and brotli at quality 4. Connect-node
 * uses zlib's defaults, and brotli's default (quality 11) took 3.0 s of CPU for a
 * 2.3 MB session list (quality 4: 7 ms, and smaller than gzip); any client that asks for
 * `br` could hold the thread pool that every file read waits on. gzip level 1 took
 * 3.1 ms against 9.9 ms for level 6, for a 9% larger answer.
 */
export const answerCompression = {
  gzipLevel: 1,
  brotliQuality: 4,
} as const;

/** `compression` with the host's own compress (`answerCompression`). */
function withCompress(
  compression: Compression,
  compress: (bytes: Uint8Array) => Promise<Buffer>,
): Compression {
  return {
    ...compression,
    compress: async (bytes) => {
      const out = await compress(bytes);
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength) as Uint8Array<ArrayBuffer>;
    },
  };
}

/**
 * `compression` whose decompression failures are the client's fault: corrupt or
 * truncated data answers `invalid_argument` (connect-node answers `internal` for
 * some, such as a truncated gzip stream), a bomb past the limit `resource_exhausted`.
 */
function strict(compression: Compression): Compression {
  return {
    name: compression.name,
    compress: (bytes) => compression.compress(bytes),
    decompress: (bytes, readMaxBytes) =>
      compression.decompress(bytes, readMaxBytes).catch((error: unknown) => {
        const mapped = ConnectError.from(error);
        if (mapped.code === Code.ResourceExhausted) throw mapped;
        throw new ConnectError(
          `the request body is not valid ${compression.name} data: compress it with ` +
            `${compression.name}, or send it uncompressed without the encoding header`,
          Code.InvalidArgument,
          undefined,
          undefined,
          error,
        );
      }),
  };
}

/** The request compressions the host accepts (and may answer with): gzip and brotli. */
export const strictCompressions: readonly Compression[] = [
  strict(
    withCompress(compressionGzip, (bytes) =>
      gzipAsync(bytes, { level: answerCompression.gzipLevel }),
    ),
  ),
  strict(
    withCompress(compressionBrotli, (bytes) =>
      brotliAsync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: answerCompression.brotliQuality },
      }),
    ),
  ),
];

/**
 * Makes connect answer the request whose `header` this is uncompressed, whatever the
 * client accepts: the host sends server streams (Follow, WatchSessions) this way. Connect
 * compresses every message of a stream on its own, with a fresh zlib state each time:
 * about 1 ms of CPU and a threadpool job per 4 KB message and per follower, which the
 * file reads of every other request then queue behind, for a saving of a few KB. Unary
 * answers (a Page of history) are still compressed when the client accepts it.
 */
export function sendUncompressed(header: Headers): void {
  header.set('connect-accept-encoding', 'identity');
  header.set('grpc-accept-encoding', 'identity');
}
