import type { ModelConfig } from './model-config.js';
import { createDemoProvider, type DemoProviderOptions } from './demo-provider.js';
import { createOpenAiProvider } from './openai-provider.js';
import type { ModelProvider } from './provider.js';

/**
 * Picks the provider of a session from the model name in its journal header: `demo` (or
 * a host without a configured endpoint) gets the offline demo model, any other name the
 * configured OpenAI-compatible endpoint with that model; empty means the configured model.
 */
export function createProviderFactory(
  config: ModelConfig,
  demo: DemoProviderOptions = {},
): (sessionModel: string) => ModelProvider {
  const demoProvider = createDemoProvider(demo);
  const providers = new Map<string, ModelProvider>();
  return (sessionModel) => {
    if (config.kind === 'demo' || sessionModel === 'demo') return demoProvider;
    const model = sessionModel === '' ? config.model : sessionModel;
    let provider = providers.get(model);
    if (!provider) {
      provider = createOpenAiProvider({ baseUrl: config.baseUrl, apiKey: config.apiKey, model });
      providers.set(model, provider);
    }
    return provider;
  };
}
