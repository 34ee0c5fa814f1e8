/**
 * Context windows of common models, by name prefix (the longest prefix wins; a
 * `vendor/` prefix such as OpenRouter's `openai/gpt-4o` is ignored). Windows count the
 * prompt and the answer together; a budget leaves room for the answer.
 */
const knownWindows: readonly (readonly [prefix: string, window: number])[] = [
  ['deepseek-chat', 131_072],
  ['deepseek-reasoner', 131_072],
  ['deepseek-coder', 131_072],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-4', 8_192],
  ['gpt-4-turbo', 128_000],
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude', 200_000],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['qwen2.5', 32_768],
  ['qwen3', 40_960],
  ['llama3', 8_192],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['llama3.3', 131_072],
  ['mistral', 32_768],
  ['codestral', 262_144],
];

/**
 * The window assumed for a model this table does not know: smaller than every hosted
 * model's, so an unknown model compacts early rather than failing at the provider. A
 * local server (llama.cpp, Ollama) may run a smaller window still: configure it.
 */
export const conservativeContextWindow = 32_768;

/** The context budget of the offline demo model: tiny, so a demo tour shows a compaction. */
export const demoContextBudget = 6_000;

/** Tokens of a window kept free for the model's answer. */
function answerReserve(window: number): number {
  return Math.min(Math.floor(window / 4), 16_384);
}

/** Where a model's default budget comes from. */
export type BudgetSource = 'configured' | 'known model' | 'demo model' | 'conservative default';

/**
 * The context budget of `model`: the most tokens one request (system prompt, tools and
 * history) may carry. A configured budget wins; else the model's known window (or the
 * conservative one) minus room for the answer.
 */
export function contextBudgetFor(
  model: string,
  configured?: number,
): { budget: number; source: BudgetSource } {
  if (configured !== undefined) return { budget: configured, source: 'configured' };
  if (model === 'demo') return { budget: demoContextBudget, source: 'demo model' };
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  let best: readonly [string, number] | undefined;
  for (const entry of knownWindows) {
    if (name.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) {
      best = entry;
    }
  }
  const window = best?.[1] ?? conservativeContextWindow;
  return {
    budget: window - answerReserve(window),
    source: best === undefined ? 'conservative default' : 'known model',
  };
}
