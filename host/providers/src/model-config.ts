/** Where the model comes from: the offline demo model or an OpenAI-compatible endpoint. */
export type ModelConfig =
  | { readonly kind: 'demo'; readonly model: 'demo' }
  | {
      readonly kind: 'openai';
      readonly baseUrl: string;
      readonly model: string;
      readonly apiKey: string | undefined;
    };

/** Used when a key is configured without a base URL or model. */
export const defaultBaseUrl = 'https://api.deepseek.com/v1';
/** Used when a key is configured without a model. */
export const defaultModel = 'deepseek-chat';
