// Preloaded into `dsh ssh` by the isolation test (NODE_OPTIONS=--import): a stream write
// that carries the marker throws, as a client whose draw hits a bug would. Only the
// client whose screen shows the marker (typed into its composer) draws it; writes that are
// not screen draws (the server's log, its message to the client) pass.
import { Writable } from 'node:stream';

const marker = 'FAULT-7F3';
const write = Writable.prototype.write;
Writable.prototype.write = function (chunk, ...rest) {
  const text = String(chunk);
  if (text.includes('\x1b[') && text.includes(marker))
    throw new Error(`a draw failed on ${marker}`);
  return write.call(this, chunk, ...rest);
};
