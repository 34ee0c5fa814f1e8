/**
 * The fixed envelope of `read` content:
 *
 *     <file path="/abs/path" lines="11-13" total="120">
 *         11\tfirst line shown
 *         12\t...
 *     </file>
 *
 * Line numbers are 1-based, right-aligned in six columns, followed by a tab. An empty
 * file has `lines="0-0"` and no numbered lines.
 */
export interface ReadEnvelope {
  path: string;
  /** First line number shown (1-based); 0 when nothing is shown. */
  firstLine: number;
  /** Last line number shown; 0 when nothing is shown. */
  lastLine: number;
  /** Lines in the whole file. */
  totalLines: number;
  /** The shown lines, without numbers. */
  lines: string[];
}

/** Writes the read envelope around numbered lines. */
export function formatReadEnvelope(envelope: ReadEnvelope): string {
  const head = `<file path="${escapeAttr(envelope.path)}" lines="${envelope.firstLine}-${envelope.lastLine}" total="${envelope.totalLines}">`;
  const body = envelope.lines.map(
    (line, i) => `${String(envelope.firstLine + i).padStart(6)}\t${line}`,
  );
  return [head, ...body, '</file>'].join('\n');
}

const headPattern = /^<file path="((?:[^"\\]|\\.)*)" lines="(\d+)-(\d+)" total="(\d+)">$/;
const linePattern = /^ *(\d+)\t(.*)$/s;

/** Parses read content back into its envelope; `undefined` when it does not fit. */
export function parseReadEnvelope(content: string): ReadEnvelope | undefined {
  const rows = content.split('\n');
  const head = headPattern.exec(rows[0] ?? '');
  if (!head || rows[rows.length - 1] !== '</file>') return undefined;
  const firstLine = Number(head[2]);
  const lastLine = Number(head[3]);
  const lines: string[] = [];
  for (let i = 1; i < rows.length - 1; i++) {
    const match = linePattern.exec(rows[i] ?? '');
    if (!match || Number(match[1]) !== firstLine + lines.length) return undefined;
    lines.push(match[2] ?? '');
  }
  const expected = firstLine === 0 ? 0 : lastLine - firstLine + 1;
  if (lines.length !== expected) return undefined;
  return {
    path: unescapeAttr(head[1] ?? ''),
    firstLine,
    lastLine,
    totalLines: Number(head[4]),
    lines,
  };
}

function escapeAttr(text: string): string {
  return text.replace(/[\\"]/g, (c) => `\\${c}`);
}

function unescapeAttr(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}
