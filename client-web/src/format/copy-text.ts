/**
 * Puts `text` on the clipboard: the async Clipboard API where the page may use it (a
 * secure context such as 127.0.0.1), else a hidden textarea and `execCommand('copy')`
 * (plain http on another address). Resolves to false when neither worked.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (globalThis.isSecureContext && navigator.clipboard !== undefined) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (no permission, page not focused): try the fallback.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Copies and shows "Copied" (or "Copy failed") on `button` for a moment. */
export async function copyWithFeedback(button: HTMLElement, text: string): Promise<void> {
  const label = button.dataset['label'] ?? button.textContent ?? 'Copy';
  button.dataset['label'] = label;
  const ok = await copyText(text);
  button.textContent = ok ? 'Copied' : 'Copy failed';
  button.dataset['copied'] = ok ? 'yes' : 'failed';
  setTimeout(() => {
    button.textContent = label;
    delete button.dataset['copied'];
  }, 1_500);
}

/** A diff card's rows as a unified diff: one `@@` head per hunk, then `+`/`-`/` ` rows. */
export function unifiedDiff(
  path: string,
  hunks: readonly {
    oldStart: number;
    oldLines: number;
    newStart: number;
    newLines: number;
    lines: readonly { kind: 'context' | 'added' | 'removed'; text: string }[];
  }[],
): string {
  const sign = { added: '+', removed: '-', context: ' ' } as const;
  const body = hunks.flatMap((h) => [
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    ...h.lines.map((line) => sign[line.kind] + line.text),
  ]);
  return [`--- a/${path}`, `+++ b/${path}`, ...body].join('\n') + '\n';
}
