import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Most symlinks followed while resolving one path, as Linux's ELOOP limit. */
const maxLinks = 40;

/**
 * The path the kernel would reach through `path` (absolute, normalised), with every symlink
 * resolved. For a path that does not exist yet, the real path of its nearest existing parent
 * plus the rest; a dangling symlink on the way is followed to where it points, so creating a
 * file through it is judged by where the file would land. Never throws.
 */
export async function realPath(path: string): Promise<string> {
  return resolveFrom(resolve(path), 0);
}

async function resolveFrom(path: string, links: number): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // Missing (or unreadable): resolve what exists and keep the rest as written.
  }
  const parent = dirname(path);
  if (parent === path) return path;
  try {
    if ((await lstat(path)).isSymbolicLink() && links < maxLinks) {
      const target = await readlink(path);
      return resolveFrom(resolve(await resolveFrom(parent, links + 1), target), links + 1);
    }
  } catch {
    // Not there at all: its parent decides.
  }
  return join(await resolveFrom(parent, links), basename(path));
}

/** Whether `path` is `root` or lies below it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
