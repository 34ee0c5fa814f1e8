import * as addonModule from '@xterm/addon-unicode11';
import * as xtermModule from '@xterm/headless';
import type { XtermClasses } from './xterm-classes.js';

// The package ships CommonJS for Node and ESM for bundlers; a namespace import plus
// `default` finds the class under both.
type XtermModule = typeof xtermModule & { default?: typeof xtermModule };
type AddonModule = typeof addonModule & { default?: typeof addonModule };

const classes: XtermClasses = {
  Terminal: (xtermModule as XtermModule).Terminal ?? (xtermModule as XtermModule).default?.Terminal,
  Unicode11Addon:
    (addonModule as AddonModule).Unicode11Addon ??
    (addonModule as AddonModule).default?.Unicode11Addon,
};

/** The emulator's classes, imported with this module (Node and every non-browser build). */
export function xtermClasses(): XtermClasses | undefined {
  return classes;
}

/** Resolves at once: the classes came with this module. */
export function loadXterm(): Promise<void> {
  return Promise.resolve();
}
