import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const clientDir = fileURLToPath(new URL('../../', import.meta.url));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds `client-web/dist` for the browser tests when it is missing or older than the sources. */
export default function setup(): void {
  const index = join(clientDir, 'dist/index.html');
  const sources = Math.max(
    newestMtime(join(clientDir, 'src')),
    newestMtime(join(clientDir, 'public')),
    newestMtime(join(clientDir, '../card-models/src')),
    newestMtime(join(clientDir, '../client-live/src')),
    statSync(join(clientDir, 'index.html')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const vite = join(clientDir, '../node_modules/vite/bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: clientDir,
    stdio: 'inherit',
  });
}
