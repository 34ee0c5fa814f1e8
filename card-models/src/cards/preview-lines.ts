/** Rows a file card shows in the conversation; details show every row (SPEC 7.2). */
export const previewLineCount = 8;

/** The conversation preview of a card's rows and how many rows it leaves for details. */
export function previewLines<T>(rows: readonly T[]): { preview: readonly T[]; hidden: number } {
  const preview = rows.length > previewLineCount ? rows.slice(0, previewLineCount) : rows;
  return { preview, hidden: rows.length - preview.length };
}
