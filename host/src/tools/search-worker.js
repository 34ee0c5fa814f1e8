// @ts-check
// The worker thread of grep and glob: lists files (the model's glob is compiled here) and
// runs the model's regular expression over their lines, so neither ever runs on the
// host's event loop. The host terminates the worker at the tool's deadline. Plain
// JavaScript, so the worker starts without the TypeScript loader.
import { readFile, stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { searchFiles } from './search-files.js';

/**
 * @typedef {{ kind: 'glob', root: string, pattern: string }} GlobJob
 * @typedef {{ kind: 'grep', root: string, isDirectory: boolean, glob: string | undefined,
 *   pattern: string, flags: string, limit: number, maxFileBytes: number,
 *   maxLineChars: number }} GrepJob
 * @typedef {{ lineNumber: number, line: string }} Match
 */

if (!parentPort) throw new Error('search-worker.js runs as a worker thread');
const port = parentPort;

/** Files read at once; bounds the worker's memory (each may be up to `maxFileBytes`). */
const batchSize = 16;

port.on('message', (/** @type {GlobJob | GrepJob} */ job) => {
  const work = job.kind === 'glob' ? glob(job) : grep(job);
  work
    .then(
      (result) => port.postMessage({ kind: 'done', result }),
      (error) => port.postMessage({ kind: 'failed', message: String(error?.message ?? error) }),
    )
    .finally(() => port.postMessage({ kind: 'ready' }));
});
port.postMessage({ kind: 'ready' });

/** @param {GlobJob} job */
async function glob(job) {
  return { paths: await searchFiles(job.root, { pattern: job.pattern }) };
}

/**
 * The matching lines of the files under `root`, file by file in sorted order; lists at
 * most `limit` lines and counts them all.
 * @param {GrepJob} job
 */
async function grep(job) {
  const regex = new RegExp(job.pattern, job.flags);
  const files = job.isDirectory
    ? await searchFiles(job.root, { pattern: job.glob ?? '**/*', baseNameMatch: true })
    : [job.root];
  /** @type {{ path: string, matches: Match[] }[]} */
  const listed = [];
  let total = 0;
  let room = job.limit;
  for (let i = 0; i < files.length; i += batchSize) {
    const batch = files.slice(i, i + batchSize);
    const found = await Promise.all(batch.map((file) => matchFile(file, regex, job)));
    found.forEach((matches, j) => {
      if (matches.length === 0) return;
      total += matches.length;
      if (room <= 0) return;
      const shown = matches.slice(0, room);
      room -= shown.length;
      listed.push({ path: batch[j] ?? '', matches: shown });
    });
  }
  return { files: listed, total };
}

/**
 * @param {string} path
 * @param {RegExp} regex
 * @param {GrepJob} job
 * @returns {Promise<Match[]>}
 */
async function matchFile(path, regex, job) {
  let bytes;
  try {
    if ((await stat(path)).size > job.maxFileBytes) return [];
    bytes = await readFile(path);
  } catch {
    return [];
  }
  // A NUL byte in the first 8000 bytes marks a binary file, as git decides.
  if (bytes.subarray(0, 8000).includes(0)) return [];
  /** @type {Match[]} */
  const matches = [];
  const lines = bytes.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (regex.test(line))
      matches.push({ lineNumber: i + 1, line: line.slice(0, job.maxLineChars) });
  }
  return matches;
}
