/**
 * What a Claude Code user line's text means. Claude Code writes slash commands, their
 * output, `!` shell commands, `#` memory notes and background-task notifications as user
 * lines whose text is wrapped in XML-like tags; a person typed only some of them.
 */
export type UserText =
  /** Text a person typed, tags it carried (system reminders) set aside. */
  | { readonly kind: 'prompt'; readonly text: string; readonly reminders: readonly string[] }
  /** A slash command: `/init`, its arguments; shown as the person typed it. */
  | { readonly kind: 'command'; readonly text: string }
  /** Output of a local slash command or of a `!` shell command. */
  | { readonly kind: 'command-output'; readonly text: string }
  /** A `!` shell command typed in Claude Code's prompt. */
  | { readonly kind: 'shell-input'; readonly text: string }
  /** A background task (shell, agent) finished or changed state. */
  | { readonly kind: 'task-notification'; readonly text: string; readonly status: string }
  /** `[Request interrupted by user]` or `[Request interrupted by user for tool use]`. */
  | { readonly kind: 'interrupt' };

const interruptMarker = /^\[Request interrupted by user[^\]]*\]$/;

/** The content of the first `<tag>...</tag>` in text, or `undefined`. */
export function tagContent(text: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = text.indexOf(open);
  if (start === -1) return undefined;
  const end = text.indexOf(`</${tag}>`, start + open.length);
  return (end === -1 ? text.slice(start + open.length) : text.slice(start + open.length, end))
    .trim()
    .replace(/\r\n/g, '\n');
}

/** Every `<tag>...</tag>` section of text removed (and their contents returned). */
function takeSections(text: string, tag: string): { rest: string; sections: string[] } {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const sections: string[] = [];
  let rest = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    const end = start === -1 ? -1 : text.indexOf(close, start + open.length);
    if (end === -1) break;
    rest += text.slice(from, start);
    sections.push(text.slice(start + open.length, end).trim());
    from = end + close.length;
  }
  return { rest: (rest + text.slice(from)).trim(), sections };
}

/**
 * Classifies the text of a user line (its text blocks joined). Tags are read with plain
 * string searches: the text is untrusted and can be large, so no pattern may backtrack.
 */
export function classifyUserText(text: string): UserText {
  const trimmed = text.trim();
  if (interruptMarker.test(trimmed)) return { kind: 'interrupt' };
  const name = tagContent(trimmed, 'command-name');
  if (name !== undefined) {
    const args = tagContent(trimmed, 'command-args') ?? '';
    const command = name.startsWith('/') ? name : `/${name}`;
    return { kind: 'command', text: args === '' ? command : `${command} ${args}` };
  }
  const stdout = tagContent(trimmed, 'local-command-stdout');
  const stderr = tagContent(trimmed, 'local-command-stderr');
  if (stdout !== undefined || stderr !== undefined) {
    return { kind: 'command-output', text: joined(stdout, stderr) };
  }
  const shell = tagContent(trimmed, 'bash-input');
  if (shell !== undefined) return { kind: 'shell-input', text: `! ${shell}` };
  const shellOut = tagContent(trimmed, 'bash-stdout');
  const shellErr = tagContent(trimmed, 'bash-stderr');
  if (shellOut !== undefined || shellErr !== undefined) {
    return { kind: 'command-output', text: joined(shellOut, shellErr) };
  }
  const memory = tagContent(trimmed, 'user-memory-input');
  if (memory !== undefined) return { kind: 'prompt', text: `# ${memory}`, reminders: [] };
  if (trimmed.startsWith('<task-notification>')) return taskNotification(trimmed);
  const { rest, sections } = takeSections(trimmed, 'system-reminder');
  return { kind: 'prompt', text: sections.length > 0 ? rest : text, reminders: sections };
}

/** A readable line for a `<task-notification>`: its summary, else its status and id. */
function taskNotification(text: string): UserText {
  const status = tagContent(text, 'status') ?? '';
  const summary = tagContent(text, 'summary');
  const id = tagContent(text, 'task-id');
  const file = tagContent(text, 'output-file');
  const head =
    summary ?? `Background task${id === undefined ? '' : ` ${id}`} ${status || 'changed state'}`;
  return {
    kind: 'task-notification',
    status,
    text: file === undefined ? head : `${head}\nOutput: ${file}`,
  };
}

function joined(a: string | undefined, b: string | undefined): string {
  return [a, b].filter((part) => part !== undefined && part !== '').join('\n');
}

/** Text with Claude Code's markup made readable, for a title: a slash command as `/init`. */
export function readableText(text: string): string {
  const user = classifyUserText(text);
  switch (user.kind) {
    case 'prompt':
    case 'command':
    case 'command-output':
    case 'shell-input':
    case 'task-notification':
      return user.text;
    case 'interrupt':
      return '';
    default: {
      const unknown: never = user;
      return String(unknown);
    }
  }
}
