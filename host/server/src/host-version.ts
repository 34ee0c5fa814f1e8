import { readFileSync } from 'node:fs';

/** The host's software version, from `host/server/package.json` (every host package shares it). */
export const hostVersion: string = readVersion();

function readVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
