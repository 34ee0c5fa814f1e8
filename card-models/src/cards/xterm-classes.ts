import type { Unicode11Addon } from '@xterm/addon-unicode11';
import type { Terminal } from '@xterm/headless';

/** The classes a replay needs from xterm.js (either may be missing from a broken install). */
export interface XtermClasses {
  readonly Terminal: typeof Terminal | undefined;
  readonly Unicode11Addon: typeof Unicode11Addon | undefined;
}
