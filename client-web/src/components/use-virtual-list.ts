import { computed, nextTick, onBeforeUnmount, ref, shallowRef, watch, type Ref } from 'vue';

/** What the virtual list needs of an item: a stable key (the node's seq). */
export interface VirtualItem {
  readonly seq: number;
}

/** Options of `useVirtualList`. */
export interface VirtualListOptions<T extends VirtualItem> {
  readonly scroller: Ref<HTMLElement | undefined>;
  /** The element the rendered rows sit in (its offset in the scroller is measured). */
  readonly list: Ref<HTMLElement | undefined>;
  readonly items: Ref<readonly T[]>;
  /** A height guess for an item never rendered yet. */
  readonly estimate: (item: T) => number;
  /** Pixels rendered above and below the viewport. */
  readonly margin?: number;
  /** True while the reader is at the bottom: layout changes keep the bottom in view. */
  readonly followBottom: Ref<boolean>;
}

/**
 * Renders only the items near the viewport: heights are measured as rows render (a
 * ResizeObserver) and guessed for the rest, spacers stand in for what is not rendered,
 * so DOM nodes stay bounded by the viewport plus `margin` however many items exist.
 * Every layout change (items prepended or appended, a row growing) keeps the first
 * visible item at the same place on screen, or keeps the bottom in view while
 * `followBottom` holds.
 */
export function useVirtualList<T extends VirtualItem>(options: VirtualListOptions<T>) {
  const margin = options.margin ?? 1_200;
  const heights = new Map<number, number>();
  const version = shallowRef(0);
  const scrollTop = ref(0);
  const viewport = ref(0);
  const listTop = ref(0);
  /** The first visible item and how far the viewport's top is into it. */
  let anchor: { seq: number; into: number } | undefined;
  /** The scroll position `restore` set last: its scroll event must not move the anchor. */
  let placed: number | undefined;

  const offsets = computed(() => {
    void version.value;
    const items = options.items.value;
    const out = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      out[i + 1] = out[i]! + (heights.get(item.seq) ?? options.estimate(item));
    }
    return out;
  });
  const indexBySeq = computed(() => {
    const map = new Map<number, number>();
    options.items.value.forEach((item, i) => map.set(item.seq, i));
    return map;
  });
  /** The index of the item that covers `y` (list coordinates). */
  const indexAt = (y: number): number => {
    const o = offsets.value;
    let low = 0;
    let high = o.length - 2;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (o[mid]! <= y) low = mid;
      else high = mid - 1;
    }
    return Math.max(0, low);
  };
  const range = computed(() => {
    const count = options.items.value.length;
    if (count === 0) return { start: 0, end: 0 };
    const top = scrollTop.value - listTop.value;
    const start = indexAt(top - margin);
    const end = Math.min(count, indexAt(top + Math.max(viewport.value, 400) + margin) + 1);
    return { start, end };
  });
  const visible = computed(() => {
    const { start, end } = range.value;
    return options.items.value.slice(start, end);
  });
  const before = computed(() => offsets.value[range.value.start] ?? 0);
  const after = computed(() => {
    const o = offsets.value;
    return (o[o.length - 1] ?? 0) - (o[range.value.end] ?? 0);
  });

  /** Reads the scroll position and the viewport, which decide the rendered range. */
  function sync(el: HTMLElement): void {
    scrollTop.value = el.scrollTop;
    viewport.value = el.clientHeight;
    listTop.value = listOffset(el);
  }

  /** Where the list starts in the scroller's content, to the fraction of a pixel. */
  function listOffset(el: HTMLElement): number {
    const list = options.list.value;
    if (list === undefined) return 0;
    return list.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
  }

  /** Remembers the first visible item (after a scroll by the reader or by us). */
  function capture(): void {
    const el = options.scroller.value;
    if (el === undefined) return;
    sync(el);
    const items = options.items.value;
    if (items.length === 0) {
      anchor = undefined;
      return;
    }
    const y = el.scrollTop - listTop.value;
    const index = indexAt(y);
    const item = items[index];
    anchor = item === undefined ? undefined : { seq: item.seq, into: y - offsets.value[index]! };
  }

  /**
   * The scroller's scroll handler. A scroll the reader made moves the anchor; the echo of
   * one `restore` made does not, since rows rendered since then may not be measured yet
   * and an anchor read from their guessed heights would drift.
   */
  function scrolled(): void {
    const el = options.scroller.value;
    if (el === undefined) return;
    if (placed !== undefined && Math.abs(el.scrollTop - placed) < 1) {
      sync(el);
      return;
    }
    placed = undefined;
    capture();
  }

  /** Puts the anchor back where it was (or the bottom in view) after a layout change. */
  function restore(): void {
    const el = options.scroller.value;
    if (el === undefined) return;
    listTop.value = listOffset(el);
    if (options.followBottom.value) {
      el.scrollTop = el.scrollHeight;
    } else if (anchor !== undefined) {
      const index = indexBySeq.value.get(anchor.seq);
      if (index !== undefined) {
        const target = listTop.value + offsets.value[index]! + anchor.into;
        if (Math.abs(el.scrollTop - target) >= 1) el.scrollTop = target;
      }
    }
    // The anchor stays as it was: read again from guessed heights it would drift.
    placed = el.scrollTop;
    sync(el);
  }

  let restoring = false;
  function relayout(): void {
    if (restoring) return;
    restoring = true;
    void nextTick(() => {
      restoring = false;
      restore();
    });
  }

  const observer =
    typeof ResizeObserver === 'undefined'
      ? undefined
      : new ResizeObserver((entries) => {
          let changed = false;
          for (const entry of entries) {
            const el = entry.target as HTMLElement;
            const seq = Number(el.dataset['vseq']);
            const height = entry.borderBoxSize[0]?.blockSize ?? el.offsetHeight;
            if (!Number.isFinite(seq) || height === 0 || heights.get(seq) === height) continue;
            heights.set(seq, height);
            changed = true;
          }
          if (changed) {
            version.value += 1;
            relayout();
          }
        });

  /** `ref` callback of a rendered row: observes its height. */
  function measure(el: unknown): void {
    if (el instanceof HTMLElement) observer?.observe(el);
  }

  watch(options.items, relayout, { flush: 'post' });
  onBeforeUnmount(() => observer?.disconnect());

  /** Scrolls so the item with `seq` is rendered and in view. */
  async function reveal(seq: number): Promise<HTMLElement | undefined> {
    const el = options.scroller.value;
    const index = indexBySeq.value.get(seq);
    if (el === undefined || index === undefined) return undefined;
    const top = listTop.value + offsets.value[index]!;
    const bottom = listTop.value + offsets.value[index + 1]!;
    if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    }
    capture();
    await nextTick();
    return el.querySelector<HTMLElement>(`[data-vseq="${seq}"]`) ?? undefined;
  }

  return { visible, before, after, measure, capture, scrolled, restore, reveal };
}
