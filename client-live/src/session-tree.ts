import type { SessionSummary } from '@dsh/gen/service';

/** One row of the session list: a session and how deep it sits under its ancestors. */
export interface SessionRow {
  readonly summary: SessionSummary;
  /** 0 for roots; a child is one deeper than its parent. */
  readonly depth: number;
  /** True for a child whose parent is not in the list (shown as a root). */
  readonly orphan: boolean;
}

/**
 * Flattens sessions into their lineage tree: children right under their parent, siblings
 * and roots newest first (by last update, then id). A session whose parent is missing is
 * a root marked `orphan`; sessions caught in a parent cycle become roots too, so every
 * session appears exactly once.
 */
export function sessionTree(summaries: Iterable<SessionSummary>): SessionRow[] {
  const all = [...summaries].sort(newestFirst);
  const byId = new Map(all.map((summary) => [summary.id, summary]));
  const children = new Map<string, SessionSummary[]>();
  for (const summary of all) {
    if (summary.parentId === '' || !byId.has(summary.parentId)) continue;
    const list = children.get(summary.parentId) ?? [];
    list.push(summary);
    children.set(summary.parentId, list);
  }
  // Roots: sessions without a parent, orphans, then one member of each cycle (its newest).
  const reached = new Set<string>();
  const reach = (id: string): void => {
    const stack = [id];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (reached.has(next)) continue;
      reached.add(next);
      for (const kid of children.get(next) ?? []) stack.push(kid.id);
    }
  };
  const roots: { summary: SessionSummary; orphan: boolean }[] = [];
  for (const summary of all) {
    const orphan = summary.parentId !== '' && !byId.has(summary.parentId);
    if (summary.parentId === '' || orphan) {
      roots.push({ summary, orphan });
      reach(summary.id);
    }
  }
  for (const summary of all) {
    if (reached.has(summary.id)) continue;
    roots.push({ summary, orphan: false });
    reach(summary.id);
  }
  roots.sort((a, b) => newestFirst(a.summary, b.summary));
  const rows: SessionRow[] = [];
  const placed = new Set<string>();
  for (const root of roots) {
    const stack: SessionRow[] = [{ summary: root.summary, depth: 0, orphan: root.orphan }];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (placed.has(next.summary.id)) continue;
      placed.add(next.summary.id);
      rows.push(next);
      const kids = children.get(next.summary.id) ?? [];
      for (let i = kids.length - 1; i >= 0; i -= 1) {
        const kid = kids[i];
        if (kid !== undefined) stack.push({ summary: kid, depth: next.depth + 1, orphan: false });
      }
    }
  }
  return rows;
}

function millis(summary: SessionSummary): number {
  const time = summary.updatedAt;
  return time === undefined ? 0 : Number(time.seconds) * 1000 + time.nanos / 1e6;
}

function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return millis(b) - millis(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
