/** Why a model step failed; the agent records the code on `agent/error`. */
export type ProviderErrorCode =
  | 'provider_unavailable' // network failure, 5xx, a stream cut short
  | 'rate_limited' // 429 after every retry
  | 'unauthenticated' // 401/403: the API key is missing or wrong
  | 'provider_rejected' // another 4xx: the request did not suit the provider
  | 'aborted'; // the step was cancelled

/** The one error type of the provider boundary; messages say what to fix. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** Maps anything thrown inside a provider to a `ProviderError`. */
  static from(cause: unknown, signal?: AbortSignal): ProviderError {
    if (cause instanceof ProviderError) return cause;
    if (signal?.aborted) return new ProviderError('aborted', 'The model step was cancelled.');
    const message = cause instanceof Error ? cause.message : String(cause);
    return new ProviderError('provider_unavailable', `The model provider failed: ${message}`);
  }
}
