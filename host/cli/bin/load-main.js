// How the dsh command loads its TypeScript sources. A bundle of them (esbuild, with the
// npm packages left to Node) starts in about half the time of tsx's loader, which
// transforms and resolves every source file through loader hooks on each start. The
// bundle lives in dist/bundle/<stamp>/, is rebuilt whenever one of its sources is newer
// or gone, and when it cannot be built or loaded the sources run through tsx.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(cliDir, '../..');
const bundlesDir = join(cliDir, 'dist/bundle');
const currentFile = join(bundlesDir, 'current');
const entry = join(cliDir, 'src/main.ts');
/**
 * The build's own version, recorded beside its inputs: a bundle built another way is
 * built again. Source maps carry no source text (half the bundle's size, and about 20 ms
 * less of every start, which reads and parses them); stack traces still name the
 * TypeScript files and lines.
 */
const bundleFormat = 2;

/**
 * The `main` of the dsh command: from the bundle when it is current or can be built,
 * else from the sources through tsx. `DSH_NO_BUNDLE=1` always takes the tsx way.
 */
export async function loadMain() {
  if (process.env.DSH_NO_BUNDLE !== '1') {
    try {
      const bundle = currentBundle() ?? (await buildBundle());
      // Stack traces name the TypeScript sources, through the bundle's source maps.
      process.setSourceMapsEnabled(true);
      return (await import(pathToFileURL(bundle).href)).main;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
      process.stderr.write(
        `dsh: starting from the sources through tsx, which is slower: the bundle in ` +
          `${bundlesDir} could not be built or loaded (${reason}); DSH_NO_BUNDLE=1 skips it\n`,
      );
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/main.ts')).main;
}

/** The current bundle's entry when every source it was built from is unchanged. */
function currentBundle() {
  if (!existsSync(currentFile)) return undefined;
  const dir = join(bundlesDir, readFileSync(currentFile, 'utf8').trim());
  let built;
  try {
    built = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8'));
  } catch {
    // Removed or cut short: built again.
    return undefined;
  }
  if (built.format !== bundleFormat) return undefined;
  for (const [file, mtimeMs] of Object.entries(built.inputs)) {
    const info = statSync(join(repoDir, file), { throwIfNoEntry: false });
    if (info === undefined || info.mtimeMs !== mtimeMs) return undefined;
  }
  return join(dir, 'main.js');
}

/**
 * Builds the bundle into a directory of its own, named after its sources and their
 * times, and makes it current. Starts that race build the same stamp: the first rename
 * wins and the others drop their copy.
 */
async function buildBundle() {
  const { build } = await import('esbuild');
  const scratch = join(bundlesDir, `.build-${process.pid}-${Date.now()}`);
  mkdirSync(scratch, { recursive: true });
  try {
    const { metafile } = await build({
      entryPoints: { main: entry },
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outdir: scratch,
      chunkNames: 'chunk-[hash]',
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [packagesExternal, sourceUrls],
    });
    const inputs = {};
    for (const file of Object.keys(metafile.inputs).sort()) {
      inputs[relative(repoDir, file)] = statSync(file).mtimeMs;
    }
    const built = JSON.stringify({ format: bundleFormat, inputs });
    writeFileSync(join(scratch, 'inputs.json'), built);
    const stamp = createHash('sha256').update(built).digest('hex').slice(0, 16);
    const dir = join(bundlesDir, stamp);
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
    const next = join(bundlesDir, `.current-${process.pid}`);
    writeFileSync(next, stamp);
    renameSync(next, currentFile);
    pruneBundles(stamp);
    return join(dir, 'main.js');
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes the bundles other than `keep` built over a day ago: a process started from one
 * may still load its lazy chunks, and no process runs that long from a replaced build.
 */
function pruneBundles(keep) {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(bundlesDir)) {
    const path = join(bundlesDir, name);
    if (name === keep || name === 'current') continue;
    if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

/** npm packages stay outside the bundle; the workspace's own (`@dsh/*`, `#`) go in. */
const packagesExternal = {
  name: 'packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith('@dsh/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Each source keeps its own `import.meta.url`, so files it finds beside itself (worker
 * scripts, the web client, the demo journals, package.json) are found as from the sources.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('ts') ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};
