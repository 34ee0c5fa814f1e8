/** The image types shown inline; anything else (SVG, HTML, …) is never rendered. */
export const inlineImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Images larger than this are named, not shown. */
export const maxInlineImageBytes = 5 * 1024 * 1024;

/** What to do with one image block: show its bytes, or say why not. */
export type ImageVerdict =
  | { readonly ok: true; readonly type: (typeof inlineImageTypes)[number] }
  | { readonly ok: false; readonly reason: string };

const signatures: Record<(typeof inlineImageTypes)[number], (bytes: Uint8Array) => boolean> = {
  'image/png': (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => starts(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => starts(b, [0x47, 0x49, 0x46, 0x38]),
  'image/webp': (b) =>
    starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
};

function starts(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/** "12 KB", "7.2 MB". */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Whether an image block may be shown inline: one of the four raster types, within the
 * size cap, and bytes that really start like that type (a block that claims PNG but
 * holds SVG or HTML is refused). Only the block's own bytes are ever shown: no URL.
 */
export function imageVerdict(mediaType: string, data: Uint8Array): ImageVerdict {
  const type = inlineImageTypes.find((known) => known === mediaType.toLowerCase().trim());
  if (type === undefined) return { ok: false, reason: `${mediaType || 'untyped'} image not shown` };
  if (data.length > maxInlineImageBytes) {
    return { ok: false, reason: `image too large to show (${byteSize(data.length)})` };
  }
  if (!signatures[type](data)) return { ok: false, reason: `not a valid ${type.slice(6)} image` };
  return { ok: true, type };
}
