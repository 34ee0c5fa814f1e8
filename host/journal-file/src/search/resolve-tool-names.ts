import { lineStrings, type LineString } from '@dsh/journal';
import { runRipgrep } from './run-ripgrep.js';

/**
 * The tool names of calls in journal files, by file and call id: one ripgrep run over
 * every file for the call lines (`"callId":"ID","name":"` is how a `tool/call` or
 * `tool/code-dispatch-start` line holds its id and name), so naming the tool of output
 * hits opens no journal and costs one subprocess per page.
 */
export async function resolveToolNames(
  wanted: ReadonlyMap<string, ReadonlySet<string>>,
  bounds: { signal: AbortSignal; deadline: number; program: string },
): Promise<Map<string, Map<string, string>>> {
  const names = new Map<string, Map<string, string>>();
  const ids = new Set([...wanted.values()].flatMap((set) => [...set]));
  if (ids.size === 0) return names;
  const patterns = [...ids].flatMap((id) => ['-e', `"callId":${JSON.stringify(id)},"name":"`]);
  const most = Math.max(...[...wanted.values()].map((set) => set.size));
  const args = [
    '--json',
    '--no-config',
    '-j1',
    '--no-mmap',
    '-a',
    '-F',
    '-m',
    String(most),
    ...patterns,
  ];
  const run = runRipgrep([...args, '--', ...wanted.keys()], {
    ...bounds,
    maxOutputBytes: 64 * 1024 * 1024,
  });
  for await (const message of run.messages) {
    if (message.type !== 'match') continue;
    const shape = lineStrings(message.line);
    if (shape === undefined) continue;
    const id = text(
      message.line,
      shape.strings.find((s) => s.path === 'callId'),
    );
    const name = text(
      message.line,
      shape.strings.find((s) => s.path === 'name'),
    );
    if (name === '' || wanted.get(message.path)?.has(id) !== true) continue;
    const inFile = names.get(message.path) ?? new Map<string, string>();
    inFile.set(id, name);
    names.set(message.path, inFile);
  }
  return names;
}

function text(line: Buffer, field: LineString | undefined): string {
  if (field === undefined) return '';
  const raw = line.toString('utf8', field.start, field.end);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}
