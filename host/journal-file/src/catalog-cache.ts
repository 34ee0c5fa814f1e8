import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonValue } from '@bufbuild/protobuf';
import { decodeHeaderLine, encodeHeaderLine, factsRestore, factsSnapshot } from '@dsh/journal';
import type { FactsCursor } from './scan-facts.js';
import type { CatalogEntry } from './session-catalog.js';

/** The cache file's name in the data dir. */
export const catalogCacheName = 'catalog.json';
/** Version 2: the facts carry the waiting queue (`queued`); an older cache is read again. */
const cacheVersion = 2;

/** A catalog entry as the cache kept it: to be checked against its file before use. */
export interface CachedEntry {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly cursor: FactsCursor;
}

/**
 * Reads the catalog cache; an entry that does not parse is left out (its file is read
 * again), and a missing or damaged cache is an empty one: it only saves reading.
 */
export async function loadCatalogCache(dataDir: string): Promise<Map<string, CachedEntry>> {
  const entries = new Map<string, CachedEntry>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(join(dataDir, catalogCacheName), 'utf8'));
  } catch {
    return entries;
  }
  const cache = parsed as { version?: unknown; sessions?: Record<string, unknown> };
  if (cache.version !== cacheVersion || typeof cache.sessions !== 'object') return entries;
  for (const [id, value] of Object.entries(cache.sessions ?? {})) {
    const entry = restoreEntry(id, value);
    if (entry !== undefined) entries.set(id, entry);
  }
  return entries;
}

/** Event-loop time the cache's encoding takes between yields. */
const sliceMs = 4;

/**
 * Writes the cache atomically (a temporary file renamed over the old one). The entries
 * are encoded one by one, yielding every few milliseconds, so a host with thousands of
 * sessions keeps serving requests while it saves.
 */
export async function saveCatalogCache(
  dataDir: string,
  entries: ReadonlyMap<string, CatalogEntry>,
): Promise<void> {
  const parts: string[] = [];
  let sliceStart = Date.now();
  for (const [id, entry] of [...entries]) {
    const { cursor } = entry;
    if (cursor.header === undefined || entry.error !== undefined) continue;
    const cached: JsonValue = {
      path: entry.path,
      size: cursor.bytes,
      mtimeMs: cursor.bytes === entry.size ? entry.mtimeMs : -1,
      header: encodeHeaderLine(cursor.header),
      length: cursor.length,
      bytes: cursor.bytes,
      lastTime: cursor.lastTime?.toISOString() ?? null,
      facts: factsSnapshot(cursor.facts),
    };
    parts.push(`${JSON.stringify(id)}:${JSON.stringify(cached)}`);
    if (Date.now() - sliceStart > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = Date.now();
    }
  }
  const path = join(dataDir, catalogCacheName);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `{"version":${cacheVersion},"sessions":{${parts.join(',')}}}`);
  await rename(temporary, path);
}

function restoreEntry(id: string, value: unknown): CachedEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, JsonValue>;
  const { path, size, mtimeMs, header, length, bytes, lastTime } = v;
  if (typeof path !== 'string' || typeof header !== 'string') return undefined;
  if (typeof size !== 'number' || typeof mtimeMs !== 'number') return undefined;
  if (typeof length !== 'number' || typeof bytes !== 'number') return undefined;
  const decoded = decodeHeaderLine(header);
  const facts = factsRestore(v.facts ?? null);
  if (!decoded.ok || decoded.value.sessionId !== id || facts === undefined) return undefined;
  const time = typeof lastTime === 'string' ? new Date(lastTime) : undefined;
  if (time !== undefined && Number.isNaN(time.getTime())) return undefined;
  return {
    path,
    size,
    mtimeMs,
    cursor: { header: decoded.value, length, bytes, lastTime: time, facts },
  };
}
