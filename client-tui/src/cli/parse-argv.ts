import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What `parseArgv` gives: Node's parsed arguments, or what it refused in them. */
export type ParsedArgv<T extends ParseArgsConfig> =
  | { readonly ok: true; readonly value: ReturnType<typeof parseArgs<T>> }
  | { readonly ok: false; readonly message: string };

/**
 * Node's `parseArgs` as a result instead of a throw, so each `dsh` command turns an unknown
 * option or a missing value into its own `{ kind: 'error' }` request with Node's message.
 */
export function parseArgv<T extends ParseArgsConfig>(config: T): ParsedArgv<T> {
  try {
    return { ok: true, value: parseArgs(config) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
