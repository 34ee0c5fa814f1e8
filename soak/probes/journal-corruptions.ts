import { readFileSync } from 'node:fs';

/** How a corrupted journal must be treated. */
export type Expectation =
  /** Served: its events up to the corruption (a torn tail is dropped). */
  | 'served'
  /** Refused with a clear error (or, when the damage happens to parse, served). */
  | 'refused';

/** One way to damage a journal file. */
export interface Corruption {
  readonly name: string;
  readonly expect: Expectation;
  /** The damaged file's bytes, from the good file's text and a random source. */
  damage(text: string, random: () => number): Buffer;
  /** Events a served file must still hold, from the good file's event count. */
  readonly keeps?: (events: number) => number;
}

const lines = (text: string): string[] => text.trimEnd().split('\n');
const join = (parts: readonly string[]): Buffer => Buffer.from(`${parts.join('\n')}\n`);
const pick = (random: () => number, from: number, to: number): number =>
  from + Math.floor(random() * Math.max(1, to - from));
const garbage = (random: () => number, length: number): Buffer =>
  Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));

/** Every corruption the journal fuzz applies, cycled over the damaged files. */
export const corruptions: readonly Corruption[] = [
  {
    name: 'torn last line',
    expect: 'served',
    keeps: (n) => n - 1,
    damage(text, random) {
      const all = lines(text);
      const last = all.pop() ?? '';
      return Buffer.from(`${all.join('\n')}\n${last.slice(0, pick(random, 1, last.length - 1))}`);
    },
  },
  {
    name: 'garbage line in the middle',
    expect: 'refused',
    damage(text, random) {
      const all = lines(text);
      const at = pick(random, 2, all.length - 1);
      return Buffer.concat([
        join(all.slice(0, at)),
        garbage(random, pick(random, 1, 300)).filter((b) => b !== 10),
        Buffer.from('\n'),
        join(all.slice(at)),
      ]);
    },
  },
  {
    name: 'flipped bytes in an event line',
    expect: 'refused',
    damage(text, random) {
      const bytes = Buffer.from(text);
      const start = text.indexOf('\n') + 1;
      for (let i = 0; i < 8; i++) {
        const at = pick(random, start, bytes.length - 1);
        if (bytes[at] !== 10)
          bytes[at] = Math.floor(random() * 256) === 10 ? 32 : Math.floor(random() * 256);
      }
      return bytes;
    },
  },
  {
    name: 'huge garbage line (8 MiB)',
    expect: 'refused',
    damage(text) {
      const all = lines(text);
      return join([
        ...all.slice(0, 3),
        `{"seq":2,"junk":"${'z'.repeat(8 * 1024 * 1024)}`,
        ...all.slice(3),
      ]);
    },
  },
  {
    name: 'huge valid event (8 MiB text)',
    expect: 'served',
    keeps: (n) => n + 1,
    damage(text) {
      const all = lines(text);
      const seq = all.length - 1;
      const event = {
        seq,
        time: '2026-01-01T00:00:00.000Z',
        type: 'user/message',
        content: [{ text: { text: 'y'.repeat(8 * 1024 * 1024) } }],
        source: 'user',
      };
      return join([...all, JSON.stringify(event)]);
    },
  },
  {
    name: 'header missing',
    expect: 'refused',
    damage: (text) => join(lines(text).slice(1)),
  },
  {
    name: 'header of a newer format',
    expect: 'refused',
    damage(text) {
      const all = lines(text);
      const header = JSON.parse(all[0] ?? '{}') as Record<string, unknown>;
      return join([JSON.stringify({ ...header, formatVersion: 99 }), ...all.slice(1)]);
    },
  },
  {
    name: 'header of another session',
    expect: 'refused',
    damage(text) {
      const all = lines(text);
      const header = JSON.parse(all[0] ?? '{}') as Record<string, unknown>;
      return join([JSON.stringify({ ...header, sessionId: 'someone-else' }), ...all.slice(1)]);
    },
  },
  {
    name: 'header not JSON',
    expect: 'refused',
    damage: (text) => join(['{"formatVersion":1,"sessionId"', ...lines(text).slice(1)]),
  },
  { name: 'empty file', expect: 'refused', damage: () => Buffer.alloc(0) },
  { name: 'NUL bytes', expect: 'refused', damage: () => Buffer.alloc(4096) },
  {
    name: 'random bytes',
    expect: 'refused',
    damage: (_text, random) => garbage(random, pick(random, 1, 20_000)),
  },
  {
    name: 'invalid UTF-8 in a line',
    expect: 'refused',
    damage(text) {
      const all = lines(text);
      const at = Math.min(3, all.length - 1);
      const broken = Buffer.concat([
        Buffer.from(all[at]!.slice(0, 30)),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(all[at]!.slice(30)),
      ]);
      return Buffer.concat([
        join(all.slice(0, at)),
        broken,
        Buffer.from('\n'),
        join(all.slice(at + 1)),
      ]);
    },
  },
  {
    name: 'seq out of order',
    expect: 'refused',
    damage(text) {
      const all = lines(text);
      const at = Math.min(4, all.length - 2);
      [all[at], all[at + 1]] = [all[at + 1]!, all[at]!];
      return join(all);
    },
  },
];

/** The text of a good journal, its header re-addressed to `sessionId`. */
export function goodJournal(path: string, sessionId: string): { text: string; events: number } {
  const all = lines(readFileSync(path, 'utf8'));
  const header = JSON.parse(all[0] ?? '{}') as Record<string, unknown>;
  const text = `${[JSON.stringify({ ...header, sessionId }), ...all.slice(1)].join('\n')}\n`;
  return { text, events: all.length - 1 };
}
