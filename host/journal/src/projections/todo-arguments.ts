/** One todo item as `todo_write` writes it. */
export interface TodoEntry {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

const statuses: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

/**
 * Parses `todo_write` argument text `{"todos":[{"content","status"}...]}`; any item
 * without a string content or with an unknown status makes the whole call malformed
 * (undefined), so a half-understood list never replaces a good one. Extra fields are
 * ignored.
 */
export function parseTodoArguments(text: string): TodoEntry[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const todos = (parsed as { todos?: unknown }).todos;
  if (!Array.isArray(todos)) return undefined;
  const entries: TodoEntry[] = [];
  for (const item of todos as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { content, status } = item as { content?: unknown; status?: unknown };
    if (typeof content !== 'string' || typeof status !== 'string' || !statuses.has(status)) {
      return undefined;
    }
    entries.push({ content, status: status as TodoEntry['status'] });
  }
  return entries;
}
