import { open, readFile } from 'node:fs/promises';

/** One journal line's fields the bench reads. */
export interface Line {
  readonly type: string;
  readonly timeMs: number;
  readonly turn: number;
}

function parseLine(text: string): Line | undefined {
  try {
    const value = JSON.parse(text) as { type?: string; time?: string; turn?: number };
    if (value.type === undefined) return undefined;
    return { type: value.type, timeMs: Date.parse(value.time ?? ''), turn: value.turn ?? 0 };
  } catch {
    return undefined;
  }
}

/** Polls the end of the session's journal file every 20 ms until turn `turn` ended. */
export async function waitTurnEnd(path: string, turn: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, size - length);
      const ends = buffer
        .toString('utf8')
        .split('\n')
        .map(parseLine)
        .filter((line) => line?.type === 'turn/end' && line.turn >= turn);
      if (ends.length > 0) return;
    } finally {
      await file.close();
    }
    if (Date.now() > deadline)
      throw new Error(`turn ${turn} of ${path}: no end in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The journal's lines of turn `turn`. */
export async function turnLines(path: string, turn: number): Promise<Line[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .slice(1)
    .flatMap((raw) => {
      const line = parseLine(raw);
      return line !== undefined && line.turn === turn ? [line] : [];
    });
}
