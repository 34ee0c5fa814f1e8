// What the composer remembers across reloads, in localStorage: the draft of every session
// and the history of sent messages. Both are bounded, and a full or missing storage only
// costs the memory, never the text on screen.

const draftsKey = 'dsh-drafts';
const historyKey = 'dsh-input-history';

/** Drafts kept (the most recently edited first). */
export const maxDrafts = 50;
/** Sent messages kept for Up/Down. */
export const maxHistory = 100;
/** A draft or message longer than this is kept in memory only. */
export const maxStoredText = 100_000;

function read(key: string): unknown {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return text === null || text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the text stays in memory for this page.
  }
}

/** The stored drafts by session id (non-empty strings only). */
export function loadDrafts(): Map<string, string> {
  const stored = read(draftsKey);
  const drafts = new Map<string, string>();
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return drafts;
  for (const [id, text] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof text === 'string' && text !== '') drafts.set(id, text);
  }
  return drafts;
}

/**
 * Stores the drafts: empty ones dropped, oversized ones left out, at most `maxDrafts`
 * (`order` lists session ids most recently edited first).
 */
export function saveDrafts(drafts: ReadonlyMap<string, string>, order: readonly string[]): void {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const id of order) {
    const text = drafts.get(id);
    if (text === undefined || text === '' || text.length > maxStoredText) continue;
    kept[id] = text;
    count += 1;
    if (count === maxDrafts) break;
  }
  write(draftsKey, kept);
}

/** The stored history of sent messages, oldest first. */
export function loadHistory(): string[] {
  const stored = read(historyKey);
  if (!Array.isArray(stored)) return [];
  return stored.filter((text): text is string => typeof text === 'string' && text !== '');
}

/** Appends a sent message (not twice in a row), keeps the newest `maxHistory`, stores them. */
export function remember(history: readonly string[], text: string): string[] {
  if (text === '' || history.at(-1) === text) return [...history];
  const next = [...history, text].slice(-maxHistory);
  write(
    historyKey,
    next.filter((entry) => entry.length <= maxStoredText),
  );
  return next;
}
