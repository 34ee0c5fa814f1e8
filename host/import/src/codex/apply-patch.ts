import { computeHunks, type FileDiff } from '@dsh/card-models/contract';

/** One file of a Codex `apply_patch` patch. */
export type PatchFile =
  | { readonly kind: 'add'; readonly path: string; readonly text: string }
  | { readonly kind: 'delete'; readonly path: string }
  | {
      readonly kind: 'update';
      readonly path: string;
      readonly moveTo: string | undefined;
      /** Each `@@` chunk as the text it replaces and the text it becomes. */
      readonly chunks: readonly { readonly old: string; readonly new: string }[];
    };

const fileHead = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/**
 * Parses a Codex patch (`*** Begin Patch` ... `*** End Patch`, the format `apply_patch`
 * takes); `undefined` when the text is not one, so the call keeps the Generic card.
 */
export function parsePatch(text: string): PatchFile[] | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let at = lines.findIndex((line) => line.trim() === '*** Begin Patch');
  if (at === -1) return undefined;
  const files: PatchFile[] = [];
  at += 1;
  while (at < lines.length && lines[at]!.trim() !== '*** End Patch') {
    const head = fileHead.exec(lines[at]!.trimEnd());
    if (!head) return undefined;
    const path = head[2]!.trim();
    at += 1;
    const body: string[] = [];
    while (
      at < lines.length &&
      !fileHead.test(lines[at]!) &&
      lines[at]!.trim() !== '*** End Patch'
    ) {
      body.push(lines[at]!);
      at += 1;
    }
    const file = patchFile(head[1]!, path, body);
    if (file === undefined) return undefined;
    files.push(file);
  }
  return files.length === 0 ? undefined : files;
}

/**
 * Each file of a Codex patch as a patch of its own (`*** Begin Patch`, that file's
 * section, `*** End Patch`), in order; `undefined` when the text is not a patch.
 */
export function splitPatch(text: string): string[] | undefined {
  if (parsePatch(text) === undefined) return undefined;
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let at = lines.findIndex((line) => line.trim() === '*** Begin Patch') + 1;
  const sections: string[][] = [];
  while (at < lines.length && lines[at]!.trim() !== '*** End Patch') {
    if (fileHead.test(lines[at]!.trimEnd())) sections.push([]);
    sections.at(-1)!.push(lines[at]!);
    at += 1;
  }
  return sections.map((section) => ['*** Begin Patch', ...section, '*** End Patch'].join('\n'));
}

function patchFile(kind: string, path: string, body: string[]): PatchFile | undefined {
  if (kind === 'Delete') return { kind: 'delete', path };
  if (kind === 'Add') {
    if (body.some((line) => !line.startsWith('+'))) return undefined;
    return { kind: 'add', path, text: body.map((line) => `${line.slice(1)}\n`).join('') };
  }
  let moveTo: string | undefined;
  const chunks: { old: string[]; new: string[] }[] = [];
  for (const line of body) {
    if (line.startsWith('*** Move to: ')) moveTo = line.slice('*** Move to: '.length).trim();
    else if (line.startsWith('@@')) chunks.push({ old: [], new: [] });
    else if (line === '*** End of File') continue;
    else {
      const chunk = chunks.at(-1) ?? (chunks.push({ old: [], new: [] }), chunks[0]!);
      const mark = line[0] ?? ' ';
      const rest = line.slice(1);
      if (mark === '-' || mark === ' ') chunk.old.push(rest);
      if (mark === '+' || mark === ' ') chunk.new.push(rest);
      if (mark !== '-' && mark !== '+' && mark !== ' ') return undefined;
    }
  }
  const texts = chunks
    .filter((c) => c.old.length > 0 || c.new.length > 0)
    .map((c) => ({ old: joinLines(c.old), new: joinLines(c.new) }));
  return { kind: 'update', path, moveTo, chunks: texts };
}

function joinLines(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * The diff meta of one patched file: a created file in full, an update's chunks with
 * their context (a Codex patch carries no line numbers, so the texts are the chunks' own,
 * joined, and rows number from the first chunk's first line).
 */
export function patchDiff(file: PatchFile): FileDiff | undefined {
  switch (file.kind) {
    case 'add':
      return {
        path: file.path,
        oldText: null,
        newText: file.text,
        hunks: computeHunks('', file.text),
      };
    case 'delete':
      return undefined;
    case 'update': {
      const oldText = file.chunks.map((c) => c.old).join('');
      const newText = file.chunks.map((c) => c.new).join('');
      const hunks = computeHunks(oldText, newText);
      return { path: file.moveTo ?? file.path, oldText, newText, hunks };
    }
    default: {
      const never: never = file;
      return never;
    }
  }
}
