import type { XtermClasses } from './xterm-classes.js';

let classes: XtermClasses | undefined;
let loading: Promise<void> | undefined;

/**
 * The emulator's classes once `loadXterm` has loaded them, else undefined (replays fall
 * back to `plainLines`). Browser builds use this module so that xterm.js (about 200 KB of
 * script) is a chunk of its own, fetched after the first paint rather than before it.
 */
export function xtermClasses(): XtermClasses | undefined {
  return classes;
}

/** Loads xterm.js and its Unicode 11 addon once; a failed load can be retried. */
export function loadXterm(): Promise<void> {
  loading ??= Promise.all([import('@xterm/headless'), import('@xterm/addon-unicode11')]).then(
    ([xterm, addon]) => {
      classes = {
        Terminal: named(xterm, 'Terminal'),
        Unicode11Addon: named(addon, 'Unicode11Addon'),
      };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** An export of a module that may be ESM or CommonJS wrapped in `default`. */
function named<M extends object, K extends keyof M>(module: M, key: K): M[K] | undefined {
  const wrapped = (module as { default?: Partial<M> }).default;
  return module[key] ?? wrapped?.[key];
}
