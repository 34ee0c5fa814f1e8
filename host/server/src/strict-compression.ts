import { Code, ConnectError } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip } from '@connectrpc/connect-node';
import type { Compression } from '@connectrpc/connect/protocol';

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
  strict(compressionGzip),
  strict(compressionBrotli),
];
