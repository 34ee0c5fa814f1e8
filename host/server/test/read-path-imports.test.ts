import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const hostSrc = resolve(import.meta.dirname, '../../src');

/** The session read path: history reads must do no tool or presentation work. */
const readPathRoots = ['journal', 'projections'].map((d) => join(hostSrc, d));
const readPathFiles = ['session/page.ts', 'session/follow.ts'].map((f) => join(hostSrc, f));

const forbiddenFolders = ['tools', 'agent', 'providers'].map((d) => join(hostSrc, d));
const forbiddenPackages = ['@dsh/card-models'];

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
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
  const queue = [...readPathRoots.flatMap(tsFiles), ...readPathFiles.filter(existsSync)];
  const seen = new Set(queue);
  const problems: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    for (const specifier of importsOf(file)) {
      const where = relative(hostSrc, file);
      if (forbiddenPackages.some((p) => specifier === p || specifier.startsWith(`${p}/`))) {
        problems.push(`${where} imports ${specifier}`);
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target === undefined) continue;
      if (forbiddenFolders.some((d) => target.startsWith(d))) {
        problems.push(`${where} imports ${relative(hostSrc, target)}`);
      }
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
    expect(tsFiles(join(hostSrc, 'journal')).length).toBeGreaterThan(0);
  });

  it('imports neither tool, agent nor presentation code', () => {
    expect(forbiddenImports()).toEqual([]);
  });
});
