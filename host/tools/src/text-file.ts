import { open, readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { JsonSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';

/** Resolves a tool's path argument against the session cwd. */
export function resolveToolPath(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** The schema of a tool's path argument, which `resolveToolPath` resolves. */
export function pathProperty(what: string): JsonSchema {
  return { type: 'string', minLength: 1, description: `${what} (absolute or relative to cwd).` };
}

/** Whether `path` is a directory; fails with `not_found` when it cannot be looked at. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    throw new ToolFailure('not_found', `${path} does not exist`);
  }
}

/** Whether a file's leading bytes look binary (contain a NUL byte, as git decides). */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8000).includes(0);
}

/** Fails with `not_found` or `is_directory` unless `path` is an existing regular file. */
export async function requireFile(path: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ToolFailure('not_found', `${path} does not exist`);
    }
    throw error;
  }
  if (isDirectory) throw new ToolFailure('is_directory', `${path} is a directory, not a file`);
}

/** Fails with `binary_file` when the file's leading bytes look binary. */
export async function requireTextFile(path: string): Promise<void> {
  await requireFile(path);
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8000);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (looksBinary(head.subarray(0, bytesRead))) {
      throw new ToolFailure(
        'binary_file',
        `${path} is a binary file; only text files can be read or edited`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** The whole text of an existing text file (see `requireTextFile`). */
export async function readTextFile(path: string): Promise<string> {
  await requireTextFile(path);
  return readFile(path, 'utf8');
}

/** The text of `path`, or `null` when it does not exist; fails on directories and binaries. */
export async function readTextFileIfExists(path: string): Promise<string | null> {
  try {
    return await readTextFile(path);
  } catch (error) {
    if (error instanceof ToolFailure && error.code === 'not_found') return null;
    throw error;
  }
}
