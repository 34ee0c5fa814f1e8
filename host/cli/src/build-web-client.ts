import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the web client is built from, relative to the repository root. */
const webSources = [
  'client-web/src',
  'client-web/public',
  'client-web/index.html',
  'client-web/vite.config.ts',
  'client-live/src',
  'card-models/src',
  'backoff/src',
  'gen/ts',
];

/**
 * Builds the web client with the workspace's own vite when `webRoot` has no index.html
 * (a fresh checkout) or a source of it is newer than that build (a pull or an edit since),
 * so `npm start` serves the app of the checkout rather than the status page or an old
 * app. Resolves with what happened; a failed build leaves the status page and says why.
 */
export async function buildWebClient(
  webRoot: string,
  out: (line: string) => void,
): Promise<'present' | 'built' | 'failed'> {
  const clientDir = dirname(webRoot);
  const built = builtAt(join(webRoot, 'index.html'));
  const reason =
    built === undefined
      ? 'client-web/dist is missing'
      : newestSource(dirname(clientDir)) > built
        ? 'its sources changed since client-web/dist was built'
        : undefined;
  if (reason === undefined) return 'present';
  const vite = join(clientDir, '../node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    out(`dsh: web client not built and vite is missing (${vite}): run npm install`);
    return 'failed';
  }
  out(`dsh: building the web client (${reason})...`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'error'], {
      cwd: clientDir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', () => resolve(1));
    child.on('exit', (status) => resolve(status ?? 1));
  });
  if (code !== 0) {
    out(`dsh: building the web client failed (exit ${code}); serving the status page`);
    return 'failed';
  }
  out('dsh: web client built');
  return 'built';
}

function builtAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time among the web client's sources under `root` (0 if none). */
export function newestSource(root: string): number {
  let newest = 0;
  const visit = (path: string): void => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (!stat.isDirectory()) {
      newest = Math.max(newest, stat.mtimeMs);
      return;
    }
    for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const source of webSources) visit(join(root, source));
  return newest;
}
