/** Test helpers for programs that drive a real `dsh serve` from outside (the soak suite). */
export { followSession } from './session-follower.js';
