import { readdir, readFile } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';
import ignore, { type Ignore } from 'ignore';

/** Options of `searchFiles`. */
export interface SearchFilesOptions {
  /** A fast-glob pattern, relative to `root`. */
  pattern: string;
  /** Match patterns without a slash against base names at any depth (ripgrep's `--glob`). */
  baseNameMatch?: boolean;
}

/**
 * Lists the files under `root` matching a glob, sorted, skipping `.git` and whatever
 * the `.gitignore` files of the repository (from its top down to each folder) ignore.
 * Ignored folders are never read, so a large ignored `node_modules` costs nothing.
 */
export async function searchFiles(root: string, options: SearchFilesOptions): Promise<string[]> {
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
      readdir: ((dir: string, opts: unknown, callback: ReaddirCallback) => {
        readdir(dir, { withFileTypes: true }, (error, entries) => {
          if (error) return callback(error, []);
          rules
            .filter(dir, entries)
            .then((kept) => callback(null, kept))
            .catch((failure: NodeJS.ErrnoException) => callback(failure, []));
        });
      }) as unknown as typeof readdir,
    },
  });
  const kept: string[] = [];
  for (const file of files) if (!(await rules.isIgnored(file, false))) kept.push(file);
  return kept.sort();
}

type Dirent = import('node:fs').Dirent;
type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void;

/** The folder holding `.git` above (or at) `dir`, else `dir` itself. */
async function repositoryTop(dir: string): Promise<string> {
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
  private readonly loaded = new Map<string, Ignore | null>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly top: string) {}

  async filter(dir: string, entries: Dirent[]): Promise<Dirent[]> {
    await this.load(dir);
    return entries.filter(
      (entry) =>
        entry.name !== '.git' && !this.ignoredLoaded(join(dir, entry.name), entry.isDirectory()),
    );
  }

  /** Whether git would ignore `path`; later (deeper) rules may re-include it. */
  async isIgnored(path: string, isDirectory: boolean): Promise<boolean> {
    await this.load(dirname(path));
    return this.ignoredLoaded(path, isDirectory);
  }

  private ignoredLoaded(path: string, isDirectory: boolean): boolean {
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

  /** Loads the rules of `dir` and of every folder between `top` and it. */
  private async load(dir: string): Promise<void> {
    const rel = relative(this.top, dir);
    if (rel.startsWith('..')) return;
    let at = this.top;
    for (const part of ['', ...(rel === '' ? [] : rel.split(sep))]) {
      at = join(at, part);
      if (this.loaded.has(at)) continue;
      let pending = this.loading.get(at);
      if (!pending) {
        const folder = at;
        pending = new Promise<void>((done) => {
          readFile(join(folder, '.gitignore'), 'utf8', (error, text) => {
            this.loaded.set(folder, error ? null : ignore().add(text));
            done();
          });
        });
        this.loading.set(folder, pending);
      }
      await pending;
    }
  }
}
