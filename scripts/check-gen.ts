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
/** Each buf template and the folder it writes; gen/package.json and gen/tsconfig.json are hand-kept. */
const templates = [
  { template: 'buf.gen.yaml', folder: 'gen/ts', needs: undefined },
  { template: 'buf.gen.python.yaml', folder: 'gen/python', needs: 'protoc' },
];

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function listFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (name === '__pycache__') return [];
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const out = mkdtempSync(join(tmpdir(), 'dsh-gen-'));
try {
  const bin = join(root, 'node_modules/.bin');
  const problems: string[] = [];
  for (const { template, folder, needs } of templates) {
    if (needs !== undefined && !onPath(needs)) {
      const message = `${folder}: not checked, ${needs} is missing (apt-get install protobuf-compiler protobuf-compiler-grpc)`;
      if (process.env.CI === 'true') problems.push(message);
      else console.warn(message);
      continue;
    }
    execFileSync(join(bin, 'buf'), ['generate', '--template', template, '--output', out], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
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
