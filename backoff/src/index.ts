/**
 * The retry backoff shared by the host's model providers and the clients' reconnect loop:
 * exponential, capped, with jitter. It imports nothing, so every package may use it.
 */
export { backoffDelay, type BackoffOptions } from './backoff-delay.js';
