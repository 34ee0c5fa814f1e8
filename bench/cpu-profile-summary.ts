import { readFile } from 'node:fs/promises';

/** The parts of a V8 `.cpuprofile` (written by `node --cpu-prof`) the summary reads. */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
  }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Where a process spent its time between two instants, by category and by function. */
export interface CpuProfileSummary {
  /** Sampled ms that were not idle. */
  readonly busyMs: number;
  readonly idleMs: number;
  /** Busy ms by category, largest first. */
  readonly categories: readonly (readonly [string, number])[];
  /** Busy ms by function (`name url:line`), largest first, the first `top`. */
  readonly functions: readonly (readonly [string, number])[];
}

/**
 * The category of a sampled frame: the package or Node subsystem its code belongs to,
 * so a reader sees encoding, HTTP writes, the journal and the agent loop apart.
 */
export function frameCategory(functionName: string, url: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'native (program)';
  const rules: readonly (readonly [RegExp, string])[] = [
    [/@bufbuild\/protobuf/, 'protobuf (encode/decode)'],
    [/@connectrpc/, 'connect'],
    [/host\/server\//, 'dsh server (follow, page)'],
    [/host\/journal(-file)?\//, 'dsh journal'],
    [/host\/(agent|providers|tools)\//, 'dsh agent loop'],
    [/gen\/ts\//, 'generated protobuf'],
    [/node:(_http|internal\/http|http)/, 'node http'],
    [/node:(net|internal\/(stream_base|net|streams|stream)|stream)/, 'node net/streams'],
    [/node:(internal\/)?(fs|async_hooks|timers|process)/, 'node fs/timers/ticks'],
    [/^node:/, 'node other'],
  ];
  for (const [pattern, category] of rules) if (pattern.test(url)) return category;
  if (url !== '') return 'other JS';
  if (/^write(v|Buffer|Utf8String|Latin1String|AsciiString)$/.test(functionName)) {
    return 'socket writes (native)';
  }
  if (functionName === 'runMicrotasks') return 'microtask queue (native)';
  return 'native (builtins)';
}

/**
 * Self time of the samples of `path` that fall between `fromUs` and `toUs` (CLOCK_MONOTONIC
 * microseconds, the clock of `process.hrtime` and of V8's profile on Linux).
 */
export async function summarizeCpuProfile(
  path: string,
  fromUs: number,
  toUs: number,
  top = 10,
): Promise<CpuProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) return;
    const frame = frames.get(id);
    if (frame === undefined) return;
    const ms = delta / 1000;
    if (frame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    const category = frameCategory(frame.functionName, frame.url);
    categories.set(category, (categories.get(category) ?? 0) + ms);
    const where = frame.url.replace(/^.*\/(node_modules|work\/[^/]+)\//, '');
    const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    busyMs,
    idleMs,
    categories: sorted(categories),
    functions: sorted(functions).slice(0, top),
  };
}
