// @ts-check
// File listing for grep and glob, run inside the search worker (plain JavaScript, so the
// worker starts without the TypeScript loader).
import { readdir, readFile } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';
import ignore from 'ignore';

/** @typedef {import('node:fs').Dirent} Dirent */
/** @typedef {(error: NodeJS.ErrnoException | null, entries: Dirent[]) => void} ReaddirCallback */

/**
 * Lists the files under `root` matching a glob, sorted, skipping `.git` and whatever
 * the `.gitignore` files of the repository (from its top down to each folder) ignore.
 * Ignored folders are never read, so a large ignored `node_modules` costs nothing.
 * Symbolic links are neither listed nor followed.
 * @param {string} root
 * @param {{ pattern: string, baseNameMatch?: boolean }} options `pattern` is a fast-glob
 *   pattern relative to `root`; `baseNameMatch` matches patterns without a slash against
 *   base names at any depth (ripgrep's `--glob`).
 * @returns {Promise<string[]>}
 */
export async function searchFiles(root, options) {
  const rules = new GitignoreRules(await repositoryTop(root));
  const files = await fg(options.pattern, {
    cwd: root,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    baseNameMatch: options.baseNameMatch ?? false,
    fs: {
      readdir: /** @type {typeof readdir} */ (
        /** @type {unknown} */ (
          (
            /** @type {string} */ dir,
            /** @type {unknown} */ _opts,
            /** @type {ReaddirCallback} */ callback,
          ) => {
            readdir(dir, { withFileTypes: true }, (error, entries) => {
              if (error) return callback(error, []);
              rules
                .filter(dir, entries)
                .then((kept) => callback(null, kept))
                .catch((/** @type {NodeJS.ErrnoException} */ failure) => callback(failure, []));
            });
          }
        )
      ),
    },
  });
  /** @type {string[]} */
  const kept = [];
  for (const file of files) if (!(await rules.isIgnored(file, false))) kept.push(file);
  return kept.sort();
}

/**
 * The folder holding `.git` above (or at) `dir`, else `dir` itself.
 * @param {string} dir
 */
async function repositoryTop(dir) {
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      await access(join(at, '.git'));
      return at;
    } catch {
      if (dirname(at) === at) return resolve(dir);
    }
  }
}

/** `.gitignore` rules from `top` down, loaded once per folder and then tested synchronously. */
class GitignoreRules {
  /** @param {string} top */
  constructor(top) {
    this.top = top;
    /** @type {Map<string, import('ignore').Ignore | null>} */
    this.loaded = new Map();
    /** @type {Map<string, Promise<void>>} */
    this.loading = new Map();
  }

  /**
   * @param {string} dir
   * @param {Dirent[]} entries
   */
  async filter(dir, entries) {
    await this.load(dir);
    return entries.filter(
      (entry) =>
        entry.name !== '.git' && !this.ignoredLoaded(join(dir, entry.name), entry.isDirectory()),
    );
  }

  /**
   * Whether git would ignore `path`; later (deeper) rules may re-include it.
   * @param {string} path
   * @param {boolean} isDirectory
   */
  async isIgnored(path, isDirectory) {
    await this.load(dirname(path));
    return this.ignoredLoaded(path, isDirectory);
  }

  /**
   * @param {string} path
   * @param {boolean} isDirectory
   */
  ignoredLoaded(path, isDirectory) {
    const rel = relative(this.top, path);
    if (rel === '' || rel.startsWith('..')) return false;
    const parts = rel.split(sep);
    let ignored = false;
    let base = this.top;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = this.loaded.get(base);
      if (rules) {
        const result = rules.test(parts.slice(depth).join('/') + (isDirectory ? '/' : ''));
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      }
      base = join(base, parts[depth] ?? '');
    }
    return ignored;
  }

  /**
   * Loads the rules of `dir` and of every folder between `top` and it.
   * @param {string} dir
   */
  async load(dir) {
    const rel = relative(this.top, dir);
    if (rel.startsWith('..')) return;
    let at = this.top;
    for (const part of ['', ...(rel === '' ? [] : rel.split(sep))]) {
      at = join(at, part);
      if (this.loaded.has(at)) continue;
      let pending = this.loading.get(at);
      if (!pending) {
        const folder = at;
        pending = new Promise((done) => {
          readFile(join(folder, '.gitignore'), 'utf8', (error, text) => {
            this.loaded.set(folder, error ? null : ignore().add(text));
            done(undefined);
          });
        });
        this.loading.set(folder, pending);
      }
      await pending;
    }
  }
}
