/**
 * The package boundaries of the workspace, checked against the real import graph: every
 * import, export-from and literal dynamic import of every source file of every workspace
 * package (and of the repository's own scripts), parsed with the TypeScript compiler.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One package of the workspace (or the repository root), as its package.json declares it. */
export interface WorkspacePackage {
  readonly name: string;
  /** Folder relative to the repository root, `''` for the root package. */
  readonly dir: string;
  readonly dependencies: readonly string[];
  readonly devDependencies: readonly string[];
  /** The keys of its `imports` field: subpath imports (`#name`) private to the package. */
  readonly imports?: readonly string[];
}

/** One import specifier in one file. */
export interface SourceImport {
  /** The importing file, relative to the repository root. */
  readonly file: string;
  /** The package the file belongs to. */
  readonly from: string;
  /** Test, script and config files may use devDependencies; source files may not. */
  readonly kind: 'source' | 'test';
  readonly specifier: string;
  /** For a relative specifier: the target relative to the repository root. */
  readonly target?: string;
}

/** The packages and every import between files, ready for `checkBoundaries`. */
export interface ImportGraph {
  readonly packages: readonly WorkspacePackage[];
  readonly imports: readonly SourceImport[];
  /** The root package's devDependencies: shared tooling any test file may import. */
  readonly tooling: readonly string[];
}

/**
 * What each package may import from the workspace. An entry `@dsh/x` allows the package
 * and its subpaths; `@dsh/x/sub` allows exactly that subpath. `test` adds what test,
 * script and config files may import on top of `source`.
 */
export type DirectionRules = Readonly<
  Record<
    string,
    {
      readonly source: readonly string[];
      readonly test?: readonly string[];
      /** The package is a test harness itself (soak, bench): its sources may use test kits. */
      readonly harness?: boolean;
    }
  >
>;

/** Every workspace package that stands up a real host for its tests. */
const realHost = ['@dsh/journal-file', '@dsh/server', '@dsh/agent', '@dsh/providers', '@dsh/tools'];

/**
 * The allowed direction of every edge. The journal and the server never see tools,
 * providers, card models or clients; host code reaches card-models only through
 * `@dsh/card-models/contract` (SPEC 2); the clients see no host package outside tests.
 */
export const directionRules: DirectionRules = {
  dsh: { source: [] },
  '@dsh/gen': { source: [] },
  '@dsh/backoff': { source: [] },
  '@dsh/card-models': { source: ['@dsh/gen'], test: ['@dsh/fixtures'] },
  '@dsh/fixtures': {
    source: ['@dsh/gen', '@dsh/card-models/contract'],
    test: ['@dsh/card-models'],
  },
  '@dsh/journal': { source: ['@dsh/gen'], test: ['@dsh/fixtures'] },
  '@dsh/journal-file': { source: ['@dsh/gen', '@dsh/journal'], test: ['@dsh/fixtures'] },
  '@dsh/journal-pg': { source: ['@dsh/gen', '@dsh/journal'], test: ['@dsh/fixtures'] },
  '@dsh/tools': {
    source: ['@dsh/gen', '@dsh/card-models/contract'],
    test: ['@dsh/fixtures', '@dsh/card-models'],
  },
  '@dsh/providers': { source: ['@dsh/gen', '@dsh/backoff'] },
  '@dsh/agent': {
    source: [
      '@dsh/gen',
      '@dsh/journal',
      '@dsh/tools',
      '@dsh/providers',
      '@dsh/card-models/contract',
    ],
    // Tests check that what the runtime records folds into what the clients show.
    test: ['@dsh/fixtures', '@dsh/journal-file', '@dsh/providers/test-kit', '@dsh/card-models'],
  },
  '@dsh/import': {
    source: [
      '@dsh/gen',
      '@dsh/journal',
      '@dsh/journal-file',
      '@dsh/tools',
      '@dsh/card-models/contract',
    ],
    test: ['@dsh/fixtures', '@dsh/server', '@dsh/card-models'],
  },
  '@dsh/server': {
    source: ['@dsh/gen', '@dsh/journal'],
    // The Search RPC's tests run over both stores that search.
    test: ['@dsh/fixtures', '@dsh/journal-file', '@dsh/journal-pg', '@dsh/journal-pg/test-kit'],
  },
  '@dsh/cli': {
    source: [
      '@dsh/journal',
      '@dsh/journal-file',
      // `dsh serve --store postgres://...`.
      '@dsh/journal-pg',
      '@dsh/tools',
      '@dsh/providers',
      '@dsh/agent',
      '@dsh/import',
      '@dsh/server',
      '@dsh/fixtures/journals',
      '@dsh/client-web/web-dist',
      '@dsh/client-tui',
    ],
    // End-to-end tests check what a client would show with the clients' own models.
    test: [
      '@dsh/gen',
      '@dsh/fixtures',
      '@dsh/card-models',
      '@dsh/journal-pg/test-kit',
      '@dsh/journal/conformance',
    ],
  },
  '@dsh/client-live': {
    source: ['@dsh/gen', '@dsh/backoff', '@dsh/card-models'],
    test: ['@dsh/fixtures', '@dsh/journal', '@dsh/journal-file', '@dsh/server'],
  },
  '@dsh/client-web': {
    source: ['@dsh/gen', '@dsh/card-models', '@dsh/client-live'],
    test: ['@dsh/fixtures', '@dsh/journal', ...realHost],
  },
  '@dsh/client-tui': {
    source: ['@dsh/gen', '@dsh/card-models', '@dsh/client-live'],
    test: ['@dsh/fixtures', '@dsh/journal', ...realHost],
  },
  '@dsh/bench': {
    source: [
      '@dsh/gen',
      '@dsh/agent',
      '@dsh/card-models',
      '@dsh/fixtures',
      '@dsh/journal',
      '@dsh/journal-file',
      // The web rows open an imported Claude Code session.
      '@dsh/import',
      // The PostgreSQL rows start a temporary cluster with its test kit.
      '@dsh/journal-pg',
      '@dsh/server',
      // The `dsh` bin, for cold figures from a fresh host process.
      '@dsh/cli',
      '@dsh/cli/long-journal',
      // `dshBin`: the catalog rows time a fresh `dsh serve` process per measurement.
      '@dsh/cli',
      '@dsh/client-web/web-dist',
      '@dsh/client-live',
      '@dsh/client-tui',
      '@dsh/providers',
      '@dsh/providers/test-kit',
      '@dsh/tools',
    ],
    harness: true,
  },
  '@dsh/soak': {
    source: [
      '@dsh/gen',
      '@dsh/agent',
      '@dsh/cli',
      '@dsh/cli/test-kit',
      '@dsh/fixtures/journals',
      '@dsh/fixtures/prng',
      '@dsh/providers/test-kit',
    ],
    harness: true,
  },
};

const allows = (entry: string, specifier: string): boolean => {
  const [scope, name, ...sub] = entry.split('/');
  const isPackage = sub.length === 0 && scope?.startsWith('@') && name !== undefined;
  return specifier === entry || (isPackage === true && specifier.startsWith(`${entry}/`));
};

/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const builtins = new Set(builtinModules);
const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtins.has(packageOf(specifier));

const inside = (dir: string, path: string): boolean =>
  dir === '' ? !path.startsWith('..') : path === dir || path.startsWith(`${dir}/`);

/**
 * Every boundary violation of `graph` under `rules`, one clear sentence each (empty when
 * the graph keeps every boundary): undeclared or unused workspace dependencies, relative
 * imports that leave their package, edges the direction table forbids, test kits used by
 * source files, and external packages nobody declares.
 */
export function checkBoundaries(graph: ImportGraph, rules: DirectionRules): string[] {
  const problems: string[] = [];
  const byName = new Map(graph.packages.map((p) => [p.name, p]));
  const workspace = new Set(byName.keys());
  const used = new Map(
    graph.packages.map((p) => [p.name, { source: new Set<string>(), any: new Set<string>() }]),
  );
  for (const pkg of graph.packages) {
    if (rules[pkg.name] === undefined) {
      problems.push(`${pkg.name} (${pkg.dir || '.'}) has no entry in the direction table: add one`);
    }
  }
  for (const edge of graph.imports) {
    const pkg = byName.get(edge.from);
    if (pkg === undefined) continue;
    if (edge.target !== undefined) {
      if (!inside(pkg.dir, edge.target)) {
        const owner = graph.packages
          .filter((p) => p.dir !== '' && inside(p.dir, edge.target ?? ''))
          .map((p) => p.name)[0];
        problems.push(
          `${edge.file}: relative import '${edge.specifier}' leaves ${pkg.name} (${pkg.dir || '.'}/)` +
            (owner === undefined ? '' : `; import '${owner}' through its exports instead`),
        );
      }
      continue;
    }
    if (edge.specifier.startsWith('#')) {
      // A subpath import resolves inside the package, through its own `imports` map.
      if (!(pkg.imports ?? []).includes(edge.specifier)) {
        problems.push(
          `${edge.file}: imports ${edge.specifier}, which ${pkg.dir || '.'}/package.json does not map in its imports field: add it there`,
        );
      }
      continue;
    }
    if (isBuiltin(edge.specifier)) continue;
    const target = packageOf(edge.specifier);
    const declared =
      edge.kind === 'source'
        ? pkg.dependencies.includes(target)
        : pkg.dependencies.includes(target) || pkg.devDependencies.includes(target);
    if (!workspace.has(target)) {
      const tooling = edge.kind === 'test' && graph.tooling.includes(target);
      if (!declared && !tooling) {
        const field = edge.kind === 'source' ? 'dependencies' : 'devDependencies';
        problems.push(
          `${edge.file}: imports ${target}, which ${pkg.dir || '.'}/package.json does not declare: add it to ${field}`,
        );
      }
      continue;
    }
    // A package may import itself by name (tests going through its exports, like users).
    if (target === pkg.name) continue;
    used.get(pkg.name)?.any.add(target);
    if (edge.kind === 'source') used.get(pkg.name)?.source.add(target);
    if (!declared) {
      const field = edge.kind === 'source' ? 'dependencies' : 'devDependencies';
      problems.push(
        `${edge.file}: imports ${edge.specifier}, but ${pkg.dir || '.'}/package.json does not declare ${target} in ${field}`,
      );
    }
    if (
      edge.kind === 'source' &&
      edge.specifier.endsWith('/test-kit') &&
      rules[pkg.name]?.harness !== true
    ) {
      problems.push(
        `${edge.file}: a source file imports the test kit '${edge.specifier}': only tests may`,
      );
    }
    const rule = rules[pkg.name];
    if (rule === undefined) continue;
    const allowed = edge.kind === 'source' ? rule.source : [...rule.source, ...(rule.test ?? [])];
    if (!allowed.some((entry) => allows(entry, edge.specifier))) {
      const where = edge.kind === 'source' ? 'source' : 'test';
      problems.push(
        `${edge.file}: ${pkg.name} must not import ${edge.specifier} (the direction table allows ${where} imports of: ${allowed.join(', ') || 'nothing in the workspace'})`,
      );
    }
  }
  for (const pkg of graph.packages) {
    const seen = used.get(pkg.name);
    for (const dep of pkg.dependencies.filter((d) => workspace.has(d))) {
      if (seen?.source.has(dep)) continue;
      problems.push(
        seen?.any.has(dep)
          ? `${pkg.dir || '.'}/package.json: only tests import ${dep}: move it to devDependencies`
          : `${pkg.dir || '.'}/package.json: declares ${dep}, which no file of ${pkg.name} imports: remove it`,
      );
    }
    for (const dep of pkg.devDependencies.filter((d) => workspace.has(d))) {
      if (!seen?.any.has(dep)) {
        problems.push(
          `${pkg.dir || '.'}/package.json: declares ${dep} in devDependencies, which no file of ${pkg.name} imports: remove it`,
        );
      }
    }
  }
  return problems;
}

interface PackageJson {
  name?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  imports?: Record<string, unknown>;
}

const readJson = (path: string): PackageJson =>
  JSON.parse(readFileSync(path, 'utf8')) as PackageJson;

/** Folders that hold no hand-written source: data, output and other repositories' files. */
const skipped = new Set(['node_modules', 'dist', '.git', '__snapshots__', '__pycache__']);
const skippedPaths = ['fixtures/journals', 'gen/python', 'test-artifacts', 'bench/results'];
const sourceFile = /\.(ts|mts|cts|js|mjs|cjs|vue)$/;

function listFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = dir === '' ? name : `${dir}/${name}`;
    if (skipped.has(name) || skippedPaths.includes(path) || name.startsWith('.')) return [];
    if (statSync(join(root, path)).isDirectory()) return listFiles(root, path);
    return sourceFile.test(name) ? [path] : [];
  });
}

/** The script blocks of a Vue single-file component, or the whole text of any other file. */
function scriptText(file: string, text: string): string {
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

const isTestFile = (path: string): boolean =>
  /(^|\/)(test|scripts)\//.test(path) || /\.(test|config)\.[cm]?[jt]s$/.test(path);

/** Reads the workspace at `root`: its package manifests and the imports of every file. */
export function readImportGraph(root: string): ImportGraph {
  const rootJson = readJson(join(root, 'package.json'));
  const dirs = (rootJson.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent))
      .filter((name) => existsSync(join(root, parent, name, 'package.json')))
      .map((name) => `${parent}/${name}`);
  });
  const manifest = (dir: string, json: PackageJson): WorkspacePackage => ({
    name: json.name ?? dir,
    dir,
    dependencies: Object.keys(json.dependencies ?? {}),
    devDependencies: Object.keys(json.devDependencies ?? {}),
    imports: Object.keys(json.imports ?? {}),
  });
  const packages = [
    // The root package holds the repository's own scripts; its devDependencies are theirs.
    { ...manifest('', rootJson), dependencies: Object.keys(rootJson.devDependencies ?? {}) },
    ...dirs.map((dir) => manifest(dir, readJson(join(root, dir, 'package.json')))),
  ];
  const owner = (file: string): WorkspacePackage =>
    packages
      .filter((p) => inside(p.dir, file))
      .sort((a, b) => b.dir.length - a.dir.length)[0] as WorkspacePackage;
  const imports = listFiles(root, '').flatMap((file) => {
    const pkg = owner(file);
    const inPackage = pkg.dir === '' ? file : file.slice(pkg.dir.length + 1);
    const text = scriptText(file, readFileSync(join(root, file), 'utf8'));
    const { importedFiles } = ts.preProcessFile(text, true, true);
    return importedFiles.map(({ fileName: specifier }): SourceImport => {
      const base = {
        file,
        from: pkg.name,
        kind: isTestFile(inPackage) ? 'test' : 'source',
        specifier,
      } as const;
      if (!specifier.startsWith('.')) return base;
      const target = relative(root, resolve(root, dirname(file), specifier))
        .split(sep)
        .join('/');
      return { ...base, target };
    });
  });
  return { packages, imports, tooling: Object.keys(rootJson.devDependencies ?? {}) };
}
