import { lineStrings, type LineString } from '@dsh/journal';
import { runRipgrep } from './run-ripgrep.js';

/**
 * The tool names of calls in one journal file, by call id: one ripgrep run for the call
 * lines (`"callId":"ID","name":"` is how a `tool/call` or `tool/code-dispatch-start`
 * line starts its id and name), so naming the tool of an output hit opens no journal.
 */
export async function resolveToolNames(
  path: string,
  callIds: ReadonlySet<string>,
  bounds: { signal: AbortSignal; deadline: number },
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (callIds.size === 0) return names;
  const patterns = [...callIds].flatMap((id) => ['-e', `"callId":${JSON.stringify(id)},"name":"`]);
  const args = [
    '--json',
    '--no-config',
    '-j1',
    '-a',
    '-F',
    '-m',
    String(callIds.size),
    ...patterns,
    '--',
    path,
  ];
  const run = runRipgrep(args, { ...bounds, maxOutputBytes: 64 * 1024 * 1024 });
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
    if (callIds.has(id) && name !== '') names.set(id, name);
    if (names.size === callIds.size) break;
  }
  return names;
}

function text(line: Buffer, field: LineString | undefined): string {
  if (field === undefined) return '';
  const raw = line.toString('utf8', field.start, field.end);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}
