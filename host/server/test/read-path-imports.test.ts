import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const hostDir = resolve(import.meta.dirname, '../..');

/** The session read path: history reads must do no tool or presentation work. */
const readPathRoots = ['journal/src', 'journal-file/src'].map((d) => join(hostDir, d));
const readPathFiles = ['server/src/session/session-service.ts', 'server/src/session/follow.ts'].map(
  (f) => join(hostDir, f),
);

const forbiddenPackages = [
  '@dsh/tools',
  '@dsh/agent',
  '@dsh/providers',
  '@dsh/import',
  '@dsh/card-models',
  '@dsh/client-live',
  '@dsh/client-web',
  '@dsh/client-tui',
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)];
  const dynamic = [...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return [...specifiers, ...dynamic].map((m) => m[1] ?? '');
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Walks the static import graph from the read path and lists forbidden edges. */
function forbiddenImports(): string[] {
  const queue = [...readPathRoots.flatMap(tsFiles), ...readPathFiles];
  const seen = new Set(queue);
  const problems: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    for (const specifier of importsOf(file)) {
      const where = relative(hostDir, file);
      if (forbiddenPackages.some((p) => specifier === p || specifier.startsWith(`${p}/`))) {
        problems.push(`${where} imports ${specifier}`);
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target === undefined) continue;
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return problems;
}

describe('the session read path', () => {
  it('exists where this test looks for it', () => {
    const missing = [...readPathRoots, ...readPathFiles].filter((path) => !existsSync(path));
    expect(missing, 'read-path modules this test names but cannot find').toEqual([]);
    for (const dir of readPathRoots) expect(tsFiles(dir).length, dir).toBeGreaterThan(0);
  });

  it('imports neither tool, agent nor presentation code', () => {
    expect(forbiddenImports()).toEqual([]);
  });
});
