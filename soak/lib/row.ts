/**
 * One line of the soak table: how many checks a probe tried, how many failed and how
 * many acknowledged events it lost (null where a probe cannot lose events).
 */
export interface Row {
  /** The probe, e.g. `kill -9 during appends`. */
  readonly probe: string;
  readonly tried: number;
  readonly failed: number;
  readonly lost: number | null;
  /** A required row makes `npm run soak` exit 1 when it fails or loses anything. */
  readonly required: boolean;
  /** Figures that explain the counts. */
  readonly note: string;
  /** Why the row did not run (its counts are then 0). */
  readonly skipped?: string;
  /** Wall time of the probe in milliseconds. */
  readonly ms: number;
}

/** Whether a row counts against the exit status. */
export function rowFails(row: Row): boolean {
  return row.skipped === undefined && (row.failed > 0 || (row.lost ?? 0) > 0);
}

/** The exit status of a run: 1 when a required row failed or lost anything. */
export function exitStatus(rows: readonly Row[]): number {
  return rows.some((row) => row.required && rowFails(row)) ? 1 : 0;
}

const noteChars = 500;

/** The markdown table of a run. */
export function resultsTable(rows: readonly Row[]): string {
  const head = [
    '| probe | tried | failed | lost | required | verdict | note |',
    '| --- | ---: | ---: | ---: | --- | --- | --- |',
  ];
  const body = rows.map((row) => {
    const verdict = row.skipped ? 'skipped' : rowFails(row) ? 'FAIL' : 'pass';
    const full = row.skipped ? `skipped: ${row.skipped}` : row.note;
    // The JSON keeps the whole note; the table keeps the start of it.
    const short = full.length > noteChars ? `${full.slice(0, noteChars)}...` : full;
    const note = short.replaceAll('|', '\\|').replaceAll('\n', ' ');
    const lost = row.lost === null ? '–' : String(row.lost);
    return `| ${row.probe} | ${row.tried} | ${row.failed} | ${lost} | ${row.required ? 'yes' : 'no'} | ${verdict} | ${note} |`;
  });
  return [...head, ...body].join('\n');
}
