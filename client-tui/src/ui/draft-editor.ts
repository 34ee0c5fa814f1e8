import { editWithSuspendedScreen, type SuspendableProgram } from './edit-in-editor.js';
import { applyEdit, pasteIntoComposer, type KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

/** What the draft editor works with. */
export interface DraftEditorOptions {
  readonly program: SuspendableProgram;
  readonly input: { pause(): unknown; resume(): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether `$EDITOR` may run (off for a terminal that is not this process's own). */
  readonly editor: boolean;
  readonly state: TuiState;
  readonly context: () => KeyContext;
  /** Forgets what the terminal shows, so the next draw writes the whole screen. */
  readonly invalidate: () => void;
  readonly schedule: () => void;
  readonly closed: () => boolean;
}

/** The composer's ways in from outside the keys: the person's editor and pastes. */
export interface DraftEditor {
  /** True while the editor has the terminal: keys and pastes are ignored meanwhile. */
  readonly editing: boolean;
  /** Opens the draft in `$VISUAL` / `$EDITOR`, or says why it cannot. */
  edit(): Promise<void>;
  /** Puts a bracketed paste into the composer (`cut` when it was too long to keep whole). */
  paste(text: string, cut: boolean): void;
}

/** Creates the draft editor of one client; each change asks for a redraw. */
export function createDraftEditor(options: DraftEditorOptions): DraftEditor {
  const { state, schedule } = options;
  let editing = false;
  return {
    get editing() {
      return editing;
    },
    async edit() {
      if (editing || options.closed()) return;
      if (!options.editor) {
        const error =
          'no $EDITOR over dsh ssh: write long prompts here (Alt+Enter or Ctrl+J for a new line)';
        applyEdit(state, options.context(), { error });
        schedule();
        return;
      }
      editing = true;
      const result = await editWithSuspendedScreen(
        options.program,
        options.input,
        state.composer.text,
        options.env,
      );
      editing = false;
      options.invalidate();
      applyEdit(state, options.context(), result);
      schedule();
    },
    paste(text, cut) {
      if (options.closed() || editing) return;
      pasteIntoComposer(state, options.context(), text, cut);
      schedule();
    },
  };
}
