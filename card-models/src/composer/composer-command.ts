/** What a composer's text asks for: a prompt for the model, or a command to the host. */
export type ComposerCommand =
  | { readonly kind: 'prompt'; readonly text: string }
  | { readonly kind: 'compact'; readonly instruction: string };

/** The command that compacts the model's history; the rest of the text is the instruction. */
export const compactCommand = '/compact';

/**
 * Reads a composer's text the same way in both clients: `/compact` alone, or followed by
 * whitespace and an instruction ("/compact keep the API design decisions"), asks the host
 * to compact; anything else (`/compaction`, `/usr/bin is slow`) is a prompt, as typed.
 */
export function composerCommand(text: string): ComposerCommand {
  const trimmed = text.trim();
  if (!trimmed.startsWith(compactCommand)) return { kind: 'prompt', text: trimmed };
  const rest = trimmed.slice(compactCommand.length);
  if (rest !== '' && !/^\s/.test(rest)) return { kind: 'prompt', text: trimmed };
  return { kind: 'compact', instruction: rest.trim() };
}
