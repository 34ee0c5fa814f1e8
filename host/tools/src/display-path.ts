import { isAbsolute, relative } from 'node:path';

/** A path as tools list it: relative to the session cwd when inside it, else absolute. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
