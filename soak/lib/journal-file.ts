import { readFileSync } from 'node:fs';

/** What a journal file holds, read from outside the host. */
export interface JournalFile {
  /** Whether line 1 parses as a JSON object. */
  readonly headerOk: boolean;
  /** The seq of every event line that parses, in file order. */
  readonly seqs: readonly number[];
  /** Lines (header excluded) that do not parse as JSON objects with a numeric seq. */
  readonly badLines: number;
  /** The file does not end with a newline (a torn last line). */
  readonly tornTail: boolean;
}

/** Reads a journal file as lines; never throws on content (a missing file throws). */
export function readJournalFile(path: string): JournalFile {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const tornTail = text.length > 0 && !text.endsWith('\n');
  if (!tornTail) lines.pop();
  const parse = (line: string): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(line);
      return typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  const headerOk = parse(lines[0] ?? '') !== undefined;
  const seqs: number[] = [];
  let badLines = 0;
  for (const line of lines.slice(1)) {
    const seq = parse(line)?.['seq'];
    if (typeof seq === 'number') seqs.push(seq);
    else badLines++;
  }
  return { headerOk, seqs, badLines, tornTail };
}

/** Seqs that occur more than once, and seqs missing between 0 and the largest. */
export function seqProblems(seqs: readonly number[]): { duplicates: number; gaps: number } {
  const seen = new Set<number>();
  let duplicates = 0;
  let max = -1;
  for (const seq of seqs) {
    if (seen.has(seq)) duplicates++;
    seen.add(seq);
    max = Math.max(max, seq);
  }
  return { duplicates, gaps: max + 1 - seen.size };
}
