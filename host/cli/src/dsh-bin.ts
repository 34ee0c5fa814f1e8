import { fileURLToPath } from 'node:url';

/** The path of the `dsh` executable, for programs that spawn the real command line. */
export const dshBin = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));
