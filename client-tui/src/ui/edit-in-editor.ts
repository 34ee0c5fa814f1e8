import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disableBracketedPaste, enableBracketedPaste } from './bracketed-paste.js';

/** How the editor run ended: the edited text, or why there is none. */
export type EditResult = { readonly text: string } | { readonly error: string };

/**
 * Runs the person's editor (`$VISUAL`, else `$EDITOR`, else `vi`; through `sh`, so it may
 * carry arguments) on a temporary file holding `text`, on the real terminal, and resolves
 * with the file's text once it exits. The caller suspends its screen around this. The
 * temporary folder is removed either way.
 */
export async function editInEditor(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<EditResult> {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = await mkdtemp(join(tmpdir(), 'dsh-prompt-'));
  const file = join(dir, 'prompt.md');
  try {
    // A draft is saved as lines (ending in a newline, as editors save them).
    await writeFile(file, text === '' ? '' : `${text}\n`, 'utf8');
    const code = await new Promise<number | string>((resolve) => {
      const child = spawn('sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
      child.on('error', (error) => resolve(error.message));
      child.on('exit', (exitCode, signal) => resolve(signal ?? exitCode ?? 0));
    });
    if (code !== 0) {
      return {
        error: `${editor} ended with ${typeof code === 'number' ? `exit ${code}` : code}; the draft is unchanged (set VISUAL or EDITOR to your editor)`,
      };
    }
    return { text: (await readFile(file, 'utf8')).replace(/\n$/, '') };
  } catch (error) {
    return { error: `the editor could not run: ${(error as Error).message}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The parts of reblessed's program that suspending the screen uses. */
export interface SuspendableProgram {
  _write(text: string): void;
  /** Leaves the alternate screen and raw mode; the returned function restores both. */
  pause(): () => void;
}

/**
 * Runs `editInEditor` with the real terminal handed over: the normal screen, cooked mode,
 * no bracketed paste, and `keyboard` paused so only the editor reads keys. Everything is
 * restored afterwards; the caller redraws the whole screen.
 */
export async function editWithSuspendedScreen(
  program: SuspendableProgram,
  keyboard: { pause(): unknown; resume(): unknown },
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<EditResult> {
  program._write(disableBracketedPaste);
  const resume = program.pause();
  keyboard.pause();
  try {
    return await editInEditor(text, env);
  } finally {
    keyboard.resume();
    resume();
    program._write(enableBracketedPaste);
  }
}
