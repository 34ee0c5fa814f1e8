import { computeHunks, isHunk, type DiffMeta, type Hunk } from '@dsh/card-models/contract';
import { isRecord, stringOf } from '../json-fields.js';

/**
 * `write` / `edit` meta from Claude Code's `Edit` or `Write` result: one diff whose
 * hunks are the transcript's `structuredPatch`. `oldText` is `originalFile` (null when
 * the file was created), `newText` the written content or the original with the hunks
 * applied; a text the transcript does not hold is rebuilt from the other side and the
 * hunks, or left '' when neither side is there. A patch that does not add up gives
 * `undefined` (the card then falls back to the arguments).
 */
export function diffMeta(
  toolUseResult: unknown,
  args: Record<string, unknown>,
): DiffMeta | undefined {
  if (!isRecord(toolUseResult)) return undefined;
  const path = stringOf(toolUseResult, 'filePath') ?? stringOf(args, 'file_path');
  if (path === undefined || path === '') return undefined;
  const created = toolUseResult.type === 'create';
  const written = stringOf(toolUseResult, 'content');
  const original =
    stringOf(toolUseResult, 'originalFile') ?? stringOf(toolUseResult, 'originalFileContents');
  const patch = Array.isArray(toolUseResult.structuredPatch) ? toolUseResult.structuredPatch : [];
  const hunks: Hunk[] = [];
  for (const raw of patch) {
    const hunk = cleanHunk(raw);
    if (hunk === undefined) return undefined;
    hunks.push(hunk);
  }
  if (created) {
    const newText = written ?? '';
    return {
      diffs: [
        {
          path,
          oldText: null,
          newText,
          hunks: hunks.length > 0 ? hunks : computeHunks('', newText),
        },
      ],
    };
  }
  const newText =
    written ?? (original !== undefined ? applyHunks(original, hunks, 'forward') : undefined);
  const oldText =
    original ?? (newText !== undefined ? applyHunks(newText, hunks, 'reverse') : undefined);
  return { diffs: [{ path, oldText: oldText ?? '', newText: newText ?? '', hunks }] };
}

/** A hunk with "\ No newline" rows dropped, or `undefined` when its counts do not add up. */
function cleanHunk(raw: unknown): Hunk | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.lines)) return undefined;
  const hunk = {
    oldStart: raw.oldStart,
    oldLines: raw.oldLines,
    newStart: raw.newStart,
    newLines: raw.newLines,
    lines: raw.lines.filter(
      (line: unknown) => !(typeof line === 'string' && line.startsWith('\\')),
    ),
  };
  if (!isHunk(hunk)) return undefined;
  const old = hunk.lines.filter((l) => !l.startsWith('+')).length;
  const added = hunk.lines.filter((l) => !l.startsWith('-')).length;
  return old === hunk.oldLines && added === hunk.newLines ? hunk : undefined;
}

/**
 * Applies hunks to a text (`forward`: old -> new) or undoes them (`reverse`). Rows that do
 * not match the text leave it unchanged, so a stale patch never garbles the result.
 */
export function applyHunks(
  text: string,
  hunks: readonly Hunk[],
  direction: 'forward' | 'reverse',
): string {
  const from = direction === 'forward' ? '-' : '+';
  const to = direction === 'forward' ? '+' : '-';
  const lines = text.split('\n');
  const out: string[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const start = (direction === 'forward' ? hunk.oldStart : hunk.newStart) - 1;
    const at = Math.max(start, 0);
    if (at < cursor) return text;
    out.push(...lines.slice(cursor, at));
    cursor = at;
    for (const row of hunk.lines) {
      const body = row.slice(1);
      if (row.startsWith(to)) {
        out.push(body);
        continue;
      }
      if (lines[cursor] !== body) return text;
      cursor += 1;
      if (!row.startsWith(from)) out.push(body);
    }
  }
  out.push(...lines.slice(cursor));
  return out.join('\n');
}
