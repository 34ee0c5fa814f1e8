/** Model providers: the OpenAI-compatible streaming client, the offline demo model, model settings. */
export { compactionSummaryHeading } from './provider.js';
export {
  conservativeContextWindow,
  contextBudgetFor,
  demoContextBudget,
  type BudgetSource,
} from './context-budget.js';
export type {
  ModelProvider,
  ProviderChunk,
  ProviderMessage,
  ProviderRequest,
  ProviderTool,
  ProviderToolCall,
} from './provider.js';
export { ProviderError, type ProviderErrorCode } from './provider-error.js';
export { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export { createDemoProvider, type DemoProviderOptions } from './demo-provider.js';
export { demoSteps } from './demo-script.js';
export { createProviderFactory } from './provider-factory.js';
export { sseEvents } from './sse-events.js';
export { retryDelay } from './retry-delay.js';
export { defaultBaseUrl, defaultModel, type ModelConfig } from './model-config.js';
