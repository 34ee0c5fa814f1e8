import type { ConversationItem } from '../conversation/conversation-item.js';
import type { StyledLine } from '../text/styled-line.js';

/** What the viewport shows: the visible rows, which item each belongs to, and flags. */
export interface ViewportFrame {
  readonly lines: readonly StyledLine[];
  /** Index of the item each visible row belongs to. */
  readonly owners: readonly number[];
  readonly atTop: boolean;
  readonly atBottom: boolean;
}

/**
 * The conversation pane's scroll state over rendered items: a top row, a selected item,
 * and "follow" (stick to the bottom while new lines arrive). Pure; the UI draws its frame.
 */
export interface ConversationView {
  /** Replaces the items; keeps the first visible item on the same row unless following. */
  setItems(items: readonly ConversationItem[]): void;
  setHeight(height: number): void;
  readonly items: readonly ConversationItem[];
  readonly selected: number;
  readonly following: boolean;
  /** Moves the selection by `delta` items and scrolls it into view. */
  select(delta: number): void;
  /** Scrolls by `delta` rows; scrolling down to the end resumes following. */
  scroll(delta: number): void;
  /** Jumps to the bottom and follows it. */
  follow(): void;
  /** Jumps to the first row. */
  top(): void;
  /**
   * Whether the items end at the session's live end (true by default). While false (a
   * window of history), reaching the bottom does not follow, so items appended there
   * stay below the rows on screen.
   */
  setLiveEnd(live: boolean): void;
  frame(): ViewportFrame;
}

/** Creates an empty view `height` rows tall, following the bottom. */
export function createConversationView(initialHeight: number): ConversationView {
  let items: readonly ConversationItem[] = [];
  let starts: number[] = [0];
  let height = Math.max(1, initialHeight);
  let topRow = 0;
  let selected = -1;
  let following = true;
  let liveEnd = true;

  const totalRows = () => starts[starts.length - 1] ?? 0;
  const maxTop = () => Math.max(0, totalRows() - height);
  const clamp = () => {
    topRow = following ? maxTop() : Math.min(Math.max(0, topRow), maxTop());
  };
  const reveal = (index: number) => {
    const start = starts[index] ?? 0;
    const end = starts[index + 1] ?? start;
    if (start < topRow) topRow = start;
    else if (end > topRow + height) topRow = Math.min(start, end - height);
    following = liveEnd && topRow >= maxTop() && index === items.length - 1;
    clamp();
  };

  return {
    get items() {
      return items;
    },
    get selected() {
      return selected;
    },
    get following() {
      return following;
    },
    setItems(next) {
      const anchorIndex = itemAt(starts, topRow);
      const anchorKey = items[anchorIndex]?.key;
      const anchorOffset = topRow - (starts[anchorIndex] ?? 0);
      const selectedKey = items[selected]?.key;
      items = next;
      starts = [0];
      for (const item of items) starts.push((starts[starts.length - 1] ?? 0) + item.lines.length);
      if (selectedKey !== undefined) {
        const found = items.findIndex((item) => item.key === selectedKey);
        selected = found >= 0 ? found : Math.min(selected, items.length - 1);
      }
      if (following) {
        selected = items.length - 1;
      } else if (anchorKey !== undefined) {
        const found = items.findIndex((item) => item.key === anchorKey);
        if (found >= 0) topRow = (starts[found] ?? 0) + anchorOffset;
      }
      clamp();
    },
    setHeight(next) {
      height = Math.max(1, next);
      clamp();
    },
    select(delta) {
      if (items.length === 0) return;
      const from = selected < 0 ? (delta > 0 ? -1 : items.length) : selected;
      selected = Math.min(items.length - 1, Math.max(0, from + delta));
      following = false;
      reveal(selected);
    },
    scroll(delta) {
      following = false;
      topRow += delta;
      if (liveEnd && topRow >= maxTop()) following = true;
      clamp();
      const first = itemAt(starts, topRow);
      const last = itemAt(starts, topRow + height - 1);
      if (selected < first || selected > last) selected = delta < 0 ? first : last;
    },
    setLiveEnd(live) {
      liveEnd = live;
      if (!live) following = false;
    },
    follow() {
      following = true;
      selected = items.length - 1;
      clamp();
    },
    top() {
      following = false;
      topRow = 0;
      selected = items.length > 0 ? 0 : -1;
      clamp();
    },
    frame() {
      const lines: StyledLine[] = [];
      const owners: number[] = [];
      let index = itemAt(starts, topRow);
      let row = topRow;
      while (lines.length < height && index < items.length) {
        const item = items[index] as ConversationItem;
        const line = item.lines[row - (starts[index] ?? 0)];
        if (line === undefined) {
          index++;
          continue;
        }
        lines.push(line);
        owners.push(index);
        row++;
      }
      return { lines, owners, atTop: topRow === 0, atBottom: topRow >= maxTop() };
    },
  };
}

/** The index of the item containing `row` (binary search over start rows). */
function itemAt(starts: readonly number[], row: number): number {
  let lo = 0;
  let hi = Math.max(0, starts.length - 2);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
