import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkBoundaries,
  directionRules,
  readImportGraph,
  type ImportGraph,
  type SourceImport,
  type WorkspacePackage,
} from '../package-boundaries.js';

const root = join(import.meta.dirname, '../..');

const pkg = (
  name: string,
  dir: string,
  dependencies: string[] = [],
  devDependencies: string[] = [],
): WorkspacePackage => ({ name, dir, dependencies, devDependencies });

/** A small workspace that keeps every boundary; each case below breaks one. */
const packages = [
  pkg('@dsh/gen', 'gen'),
  pkg('@dsh/journal', 'host/journal', ['@dsh/gen'], ['@dsh/fixtures']),
  pkg('@dsh/tools', 'host/tools', ['@dsh/card-models', 'ignore']),
  pkg('@dsh/card-models', 'card-models', ['@dsh/gen']),
  pkg('@dsh/fixtures', 'fixtures', ['@dsh/gen']),
  pkg('@dsh/server', 'host/server', ['@dsh/journal'], ['@dsh/fixtures']),
];
const imports: SourceImport[] = [
  {
    file: 'host/journal/src/a.ts',
    from: '@dsh/journal',
    kind: 'source',
    specifier: '@dsh/gen/events',
  },
  {
    file: 'host/journal/test/a.test.ts',
    from: '@dsh/journal',
    kind: 'test',
    specifier: '@dsh/fixtures',
  },
  {
    file: 'host/journal/src/b.ts',
    from: '@dsh/journal',
    kind: 'source',
    specifier: './a.js',
    target: 'host/journal/src/a.js',
  },
  {
    file: 'host/tools/src/t.ts',
    from: '@dsh/tools',
    kind: 'source',
    specifier: '@dsh/card-models/contract',
  },
  { file: 'host/tools/src/t.ts', from: '@dsh/tools', kind: 'source', specifier: 'ignore' },
  {
    file: 'card-models/src/c.ts',
    from: '@dsh/card-models',
    kind: 'source',
    specifier: '@dsh/gen/events',
  },
  {
    file: 'fixtures/src/f.ts',
    from: '@dsh/fixtures',
    kind: 'source',
    specifier: '@dsh/gen/events',
  },
  { file: 'host/server/src/s.ts', from: '@dsh/server', kind: 'source', specifier: '@dsh/journal' },
  {
    file: 'host/server/test/s.test.ts',
    from: '@dsh/server',
    kind: 'test',
    specifier: '@dsh/fixtures',
  },
  { file: 'host/server/test/s.test.ts', from: '@dsh/server', kind: 'test', specifier: 'vitest' },
];
const good: ImportGraph = { packages, imports, tooling: ['vitest'] };

const withImport = (edge: SourceImport, declare?: { dep: string }): ImportGraph => ({
  ...good,
  packages: packages.map((p) =>
    p.name === edge.from && declare ? { ...p, dependencies: [...p.dependencies, declare.dep] } : p,
  ),
  imports: [...imports, edge],
});
const withPackages = (change: (p: WorkspacePackage) => WorkspacePackage): ImportGraph => ({
  ...good,
  packages: packages.map(change),
});

describe('checkBoundaries()', () => {
  it('reports nothing for a graph that keeps every boundary', () => {
    expect(checkBoundaries(good, directionRules)).toEqual([]);
  });

  it('accepts a subpath import the package maps in its imports field', () => {
    const graph = withImport({
      file: 'card-models/src/c.ts',
      from: '@dsh/card-models',
      kind: 'source',
      specifier: '#xterm',
    });
    const mapped = {
      ...graph,
      packages: graph.packages.map((p) =>
        p.name === '@dsh/card-models' ? { ...p, imports: ['#xterm'] } : p,
      ),
    };
    expect(checkBoundaries(mapped, directionRules)).toEqual([]);
  });

  const cases: { name: string; graph: ImportGraph; problem: string }[] = [
    {
      name: 'the journal importing the tools, even when declared',
      graph: withImport(
        {
          file: 'host/journal/src/bad.ts',
          from: '@dsh/journal',
          kind: 'source',
          specifier: '@dsh/tools',
        },
        { dep: '@dsh/tools' },
      ),
      problem:
        'host/journal/src/bad.ts: @dsh/journal must not import @dsh/tools (the direction table allows source imports of: @dsh/gen)',
    },
    {
      name: 'the server importing card-models',
      graph: withImport(
        {
          file: 'host/server/src/bad.ts',
          from: '@dsh/server',
          kind: 'source',
          specifier: '@dsh/card-models',
        },
        { dep: '@dsh/card-models' },
      ),
      problem: 'host/server/src/bad.ts: @dsh/server must not import @dsh/card-models',
    },
    {
      name: 'host code importing card-models outside its contract',
      graph: withImport({
        file: 'host/tools/src/bad.ts',
        from: '@dsh/tools',
        kind: 'source',
        specifier: '@dsh/card-models',
      }),
      problem: 'host/tools/src/bad.ts: @dsh/tools must not import @dsh/card-models',
    },
    {
      name: 'an import of a workspace package the manifest does not declare',
      graph: withImport({
        file: 'host/server/src/bad.ts',
        from: '@dsh/server',
        kind: 'source',
        specifier: '@dsh/gen/service',
      }),
      problem:
        'host/server/src/bad.ts: imports @dsh/gen/service, but host/server/package.json does not declare @dsh/gen in dependencies',
    },
    {
      name: 'a source file importing what only devDependencies declare',
      graph: withImport({
        file: 'host/server/src/bad.ts',
        from: '@dsh/server',
        kind: 'source',
        specifier: '@dsh/fixtures',
      }),
      problem:
        'host/server/src/bad.ts: imports @dsh/fixtures, but host/server/package.json does not declare @dsh/fixtures in dependencies',
    },
    {
      name: 'a declared workspace dependency nothing imports',
      graph: withPackages((p) =>
        p.name === '@dsh/journal'
          ? { ...p, dependencies: [...p.dependencies, '@dsh/card-models'] }
          : p,
      ),
      problem:
        'host/journal/package.json: declares @dsh/card-models, which no file of @dsh/journal imports: remove it',
    },
    {
      name: 'a run-time dependency only tests import',
      graph: withPackages((p) =>
        p.name === '@dsh/server' ? { ...p, dependencies: [...p.dependencies, '@dsh/fixtures'] } : p,
      ),
      problem:
        'host/server/package.json: only tests import @dsh/fixtures: move it to devDependencies',
    },
    {
      name: 'a relative import into another package',
      graph: withImport({
        file: 'host/server/src/bad.ts',
        from: '@dsh/server',
        kind: 'source',
        specifier: '../../journal/src/journal-types.js',
        target: 'host/journal/src/journal-types.js',
      }),
      problem:
        "host/server/src/bad.ts: relative import '../../journal/src/journal-types.js' leaves @dsh/server (host/server/); import '@dsh/journal' through its exports instead",
    },
    {
      name: 'an external package nobody declares',
      graph: withImport({
        file: 'host/server/src/bad.ts',
        from: '@dsh/server',
        kind: 'source',
        specifier: 'fast-glob',
      }),
      problem:
        'host/server/src/bad.ts: imports fast-glob, which host/server/package.json does not declare: add it to dependencies',
    },
    {
      name: 'a source file importing root tooling',
      graph: withImport({
        file: 'host/server/src/bad.ts',
        from: '@dsh/server',
        kind: 'source',
        specifier: 'vitest',
      }),
      problem:
        'host/server/src/bad.ts: imports vitest, which host/server/package.json does not declare: add it to dependencies',
    },
    {
      name: 'a subpath import the package does not map',
      graph: withImport({
        file: 'card-models/src/bad.ts',
        from: '@dsh/card-models',
        kind: 'source',
        specifier: '#xterm',
      }),
      problem:
        'card-models/src/bad.ts: imports #xterm, which card-models/package.json does not map in its imports field: add it there',
    },
    {
      name: 'a package missing from the direction table',
      graph: { ...good, packages: [...packages, pkg('@dsh/new', 'new')] },
      problem: '@dsh/new (new) has no entry in the direction table: add one',
    },
  ];

  it.each(cases)('reports $name', ({ graph, problem }) => {
    expect(checkBoundaries(graph, directionRules)).toContainEqual(expect.stringContaining(problem));
  });
});

describe('readImportGraph() on this repository', () => {
  const graph = readImportGraph(root);

  it('reads every workspace package and the imports of its files', () => {
    const names = graph.packages.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(Object.keys(directionRules)));
    // Leaves (the root, gen, backoff) may import no workspace package; every other does.
    const leaves = Object.keys(directionRules).filter(
      (n) => directionRules[n]!.source.length === 0,
    );
    expect(leaves).toEqual(['dsh', '@dsh/gen', '@dsh/backoff']);
    for (const name of names.filter((n) => !leaves.includes(n))) {
      const edges = graph.imports.filter((i) => i.from === name && i.specifier.startsWith('@dsh/'));
      expect(edges.length, `${name} imports no workspace package`).toBeGreaterThan(0);
    }
  });

  it('sees type-only imports, export-from, dynamic imports and Vue script blocks', () => {
    const has = (file: string, specifier: string) =>
      graph.imports.some((i) => i.file === file && i.specifier === specifier);
    expect(has('host/agent/src/agent-runtime.ts', '@dsh/journal')).toBe(true);
    expect(has('host/journal/src/index.ts', './journal-types.js')).toBe(true);
    expect(has('host/cli/src/main.ts', '@dsh/client-tui')).toBe(true);
    expect(has('client-web/src/components/SessionList.vue', '@dsh/client-live')).toBe(true);
  });

  it('exports only files that exist', () => {
    const missing = graph.packages.flatMap((p) => {
      const json = JSON.parse(readFileSync(join(root, p.dir, 'package.json'), 'utf8')) as {
        exports?: Record<string, string>;
        bin?: Record<string, string>;
      };
      return [...Object.values(json.exports ?? {}), ...Object.values(json.bin ?? {})]
        .filter((target) => !target.includes('*') && !existsSync(join(root, p.dir, target)))
        .map((target) => `${p.name}: ${target}`);
    });
    expect(missing).toEqual([]);
  });

  it('keeps every package boundary', () => {
    expect(checkBoundaries(graph, directionRules)).toEqual([]);
  });
});
