import { computed, type ComputedRef } from 'vue';

/** A list a conversation card limits: every row, the preview rows, and how many are hidden. */
export interface PreviewRows<T> {
  readonly all: readonly T[];
  readonly preview: readonly T[];
  readonly hidden: number;
}

/**
 * The rows a card shows (all when expanded, else the preview) and how many the "more"
 * button offers; nothing while `source` gives undefined (no settled body).
 */
export function usePreview<T>(
  props: { readonly expanded: boolean },
  source: () => PreviewRows<T> | undefined,
): { rows: ComputedRef<readonly T[]>; hidden: ComputedRef<number> } {
  const list = computed(source);
  const rows = computed(() => {
    const l = list.value;
    if (!l) return [];
    return props.expanded ? l.all : l.preview;
  });
  const hidden = computed(() => (props.expanded ? 0 : (list.value?.hidden ?? 0)));
  return { rows, hidden };
}

/** The preview of a body that limits its `lines` (diff, read); undefined stays undefined. */
export function linePreview<T>(
  body:
    | {
        readonly lines: readonly T[];
        readonly previewLines: readonly T[];
        readonly hiddenLines: number;
      }
    | undefined,
): PreviewRows<T> | undefined {
  return body && { all: body.lines, preview: body.previewLines, hidden: body.hiddenLines };
}
