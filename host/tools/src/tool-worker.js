// @ts-check
// The worker thread for tool work whose cost the model's input decides: listing files
// (grep and glob; the model's glob is compiled here), running the model's regular
// expression over their lines, turning a fetched HTML page into text, and diffing a
// written file. None of it runs on the host's event loop; the host terminates the worker
// at the job's deadline. Plain JavaScript, so the worker starts without the TypeScript
// loader.
import { readFile, stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { structuredPatch } from 'diff';
import { convert } from 'html-to-text';
import { searchFiles } from './search-files.js';
import { lowerThreadPriority } from './lower-thread-priority.js';

/**
 * @typedef {{ kind: 'glob', root: string, pattern: string }} GlobJob
 * @typedef {{ kind: 'grep', root: string, isDirectory: boolean, glob: string | undefined,
 *   pattern: string, flags: string, limit: number, maxFileBytes: number,
 *   maxLineChars: number }} GrepJob
 * @typedef {{ kind: 'html', html: string }} HtmlJob
 * @typedef {{ kind: 'hunks', oldText: string, newText: string, context: number,
 *   giveUpMs: number }} HunksJob
 * @typedef {{ lineNumber: number, line: string }} Match
 */

if (!parentPort) throw new Error('tool-worker.js runs as a worker thread');
const port = parentPort;
lowerThreadPriority(10);

/** Files read at once; bounds the worker's memory (each may be up to `maxFileBytes`). */
const batchSize = 16;

port.on('message', (/** @type {GlobJob | GrepJob | HtmlJob | HunksJob} */ job) => {
  run(job)
    .then(
      (result) => port.postMessage({ kind: 'done', result }),
      (error) =>
        port.postMessage({
          kind: 'failed',
          message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        }),
    )
    .finally(() => port.postMessage({ kind: 'ready' }));
});
port.postMessage({ kind: 'ready' });

/** @param {GlobJob | GrepJob | HtmlJob | HunksJob} job */
async function run(job) {
  switch (job.kind) {
    case 'glob':
      return { paths: await searchFiles(job.root, { pattern: job.pattern }) };
    case 'grep':
      return grep(job);
    case 'html':
      return { text: htmlText(job.html) };
    case 'hunks':
      return { hunks: hunks(job) };
  }
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
    if (regex.test(line)) {
      matches.push({ lineNumber: i + 1, line: line.slice(0, job.maxLineChars) });
    }
  }
  return matches;
}

/**
 * A page's text as `web_fetch` returns it: links without their targets, no images.
 * @param {string} html
 */
function htmlText(html) {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
    ],
  });
}

/**
 * The contextual hunks of a change, exactly as card-models' `computeHunks` computes them
 * (a test holds the two together), or `undefined` when the diff takes longer than
 * `giveUpMs`.
 * @param {HunksJob} job
 */
function hunks(job) {
  const patch = structuredPatch('a', 'b', job.oldText, job.newText, '', '', {
    context: job.context,
    timeout: job.giveUpMs,
  });
  if (!patch) return undefined;
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines.filter((line) => !line.startsWith('\\')),
  }));
}
