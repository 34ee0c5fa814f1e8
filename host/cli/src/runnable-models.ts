import type { ModelConfig } from '@dsh/providers';

/**
 * The models a host with this config can run, its default first: the configured model,
 * every model the config file's `models` object names (the same endpoint serves them),
 * then the offline demo model, which always runs. A demo-only host runs only `demo`.
 */
export function runnableModels(model: ModelConfig, named: Iterable<string>): string[] {
  if (model.kind === 'demo') return ['demo'];
  return [...new Set([model.model, ...named, 'demo'])];
}
