import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The web client's package folder: `vite build` runs here (the host's build-web-client step). */
export const webClientDir: string = dirname(fileURLToPath(import.meta.url));

/** The built web client (`vite build` output), which the host serves at `/`. */
export const webDistDir: string = join(webClientDir, 'dist');
