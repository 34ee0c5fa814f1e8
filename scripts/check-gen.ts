/**
 * Fails when `gen/` differs from what `buf generate` writes now, naming the command
 * that fixes it. It regenerates into a temporary folder and compares file by file, so
 * the work tree is never touched.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Output folders written by buf; gen/package.json and gen/tsconfig.json are hand-kept. */
const generated = ['gen/ts'];

function listFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const out = mkdtempSync(join(tmpdir(), 'dsh-gen-'));
try {
  const bin = join(root, 'node_modules/.bin');
  execFileSync(join(bin, 'buf'), ['generate', '--output', out], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  const problems: string[] = [];
  for (const folder of generated) {
    const fresh = new Set(listFiles(join(out, folder)).map((f) => relative(out, f)));
    const committed = new Set(listFiles(join(root, folder)).map((f) => relative(root, f)));
    for (const file of fresh) {
      if (!committed.has(file)) problems.push(`missing: ${file}`);
      else if (!readFileSync(join(out, file)).equals(readFileSync(join(root, file)))) {
        problems.push(`stale: ${file}`);
      }
    }
    for (const file of committed) if (!fresh.has(file)) problems.push(`extra: ${file}`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error('\ngen/ is not what proto/ generates: run `npm run generate` and commit gen/.');
    process.exit(1);
  }
  console.log('gen/ is fresh.');
} finally {
  rmSync(out, { recursive: true, force: true });
}
