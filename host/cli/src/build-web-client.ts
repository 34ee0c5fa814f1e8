import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Builds the web client with the workspace's own vite when `webRoot` has no index.html
 * (a fresh checkout), so `npm start` serves the app rather than the status page.
 * Resolves with what happened; a failed build leaves the status page and says why.
 */
export async function buildWebClient(
  webRoot: string,
  out: (line: string) => void,
): Promise<'present' | 'built' | 'failed'> {
  if (existsSync(join(webRoot, 'index.html'))) return 'present';
  const clientDir = dirname(webRoot);
  const vite = join(clientDir, '../node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    out(`dsh: web client not built and vite is missing (${vite}): run npm install`);
    return 'failed';
  }
  out('dsh: building the web client (client-web/dist is missing)...');
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
