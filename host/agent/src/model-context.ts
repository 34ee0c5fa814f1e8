import { CompactionReason } from '@dsh/gen/events';
import type { Journal, JournalPage } from '@dsh/journal';
import {
  ProviderError,
  type ModelProvider,
  type ProviderMessage,
  type ProviderTool,
} from '@dsh/providers';
import { compactHistory } from './compact-history.js';
import type { EventRecorder } from './event-recorder.js';
import { loadModelHistory } from './load-model-history.js';
import { createModelHistory, type ModelHistory } from './model-history.js';
import { payloads } from './payloads.js';
import { createResultSpill } from './result-spill.js';
import { fixedTokens } from './token-estimate.js';

/** Share of the context budget one tool result may take in the model's history. */
export const resultShare = 0.2;

/** What the model context of a session is built from. */
export interface ModelContextOptions {
  readonly journal: Journal;
  readonly provider: ModelProvider;
  /** The most tokens a request may carry. */
  readonly budget: number;
  readonly systemPrompt: string;
  readonly spillDir: string;
  /** The journal's tail page, when the caller has read it already. */
  readonly tail?: JournalPage;
}

/** The model's view of a session: its history and the budget every request keeps. */
export interface ModelContext {
  readonly history: ModelHistory;
  readonly budget: number;
  /** The first seq the history was loaded from (0, or the latest compaction's cut). */
  readonly loadedFrom: number;
  /** The messages of the next request: the system prompt, then the history. */
  messages(): ProviderMessage[];
  /** Estimated tokens of the next request with `tools`. */
  tokens(tools: readonly ProviderTool[]): number;
  /** Resolves once the whole text of every result cut for the model is saved. */
  settled(): Promise<void>;
}

/**
 * Opens the model context of a session: its history from the latest compaction on (see
 * `loadModelHistory`), with tool results over `resultShare` of the budget cut for the
 * model and saved whole under the spill dir.
 */
export async function openModelContext(options: ModelContextOptions): Promise<ModelContext> {
  const spill = createResultSpill(options.spillDir);
  const history = createModelHistory({
    resultTokens: Math.max(64, Math.floor(options.budget * resultShare)),
    saveResult: (callId, text) => spill.save(callId, text),
  });
  const loadedFrom = await loadModelHistory(options.journal, history, options.tail);
  return {
    history,
    budget: options.budget,
    loadedFrom,
    messages: () => [{ role: 'system', content: options.systemPrompt }, ...history.messages()],
    tokens: (tools) => history.tokens(fixedTokens(options.systemPrompt, tools)),
    settled: () => spill.settled(),
  };
}

/** What fitting a step into the budget needs. */
export interface FitScope {
  readonly context: ModelContext;
  readonly provider: ModelProvider;
  readonly recorder: EventRecorder;
  readonly systemPrompt: string;
  readonly tools: readonly ProviderTool[];
  readonly cwd: string;
  readonly turn: number;
  readonly signal: AbortSignal;
}

/**
 * Before a model step: runs the compaction a person asked for (`requested`), then an
 * automatic one when the step would pass the budget. Resolves `ok` when the step fits,
 * `failed` when it cannot run (an `agent/error` recorded says why and what to do), and
 * `aborted` when the signal ended a compaction.
 */
export async function fitContext(
  scope: FitScope,
  requested: { instruction: string } | undefined,
): Promise<'ok' | 'failed' | 'aborted'> {
  const { context } = scope;
  if (requested !== undefined) {
    const outcome = await compact(scope, CompactionReason.REQUESTED, requested.instruction);
    if (outcome === 'aborted') return outcome;
  }
  const before = context.tokens(scope.tools);
  if (before <= context.budget) return 'ok';
  const outcome = await compact(scope, CompactionReason.AUTOMATIC, '');
  if (outcome !== 'compacted') return outcome;
  const after = context.tokens(scope.tools);
  if (after <= context.budget) return 'ok';
  await scope.recorder.record([
    payloads.agentError(
      `After compacting, the next step of ${scope.provider.model} still needs about ${after} ` +
        `tokens, over its context budget of ${context.budget}. ${raiseBudget(scope.provider.model)}`,
      'context_budget_too_small',
    ),
  ]);
  return 'failed';
}

/**
 * Runs one compaction and records its `context/compaction`, or the `agent/error` that
 * says why it could not run; a failed requested compaction leaves the step to go on
 * when it still fits.
 */
export async function compact(
  scope: FitScope,
  reason: CompactionReason,
  instruction: string,
): Promise<'compacted' | 'failed' | 'aborted'> {
  const { context, provider } = scope;
  const fixed = fixedTokens(scope.systemPrompt, scope.tools);
  let outcome;
  try {
    outcome = await compactHistory({
      provider,
      history: context.history,
      budget: context.budget,
      fixed,
      reason,
      instruction,
      turn: scope.turn,
      cwd: scope.cwd,
      signal: scope.signal,
    });
  } catch (cause) {
    if (scope.signal.aborted) return 'aborted';
    const why =
      cause instanceof ProviderError || cause instanceof Error ? cause.message : String(cause);
    const next =
      reason === CompactionReason.REQUESTED
        ? 'The history is unchanged; ask again with /compact.'
        : `The next step needs about ${context.tokens(scope.tools)} tokens, over the context ` +
          `budget of ${context.budget}: send a new prompt to try again. ${raiseBudget(provider.model)}`;
    await scope.recorder.record([
      payloads.agentError(`Compacting the history failed: ${why} ${next}`, 'compaction_failed'),
    ]);
    return 'failed';
  }
  if ('refusal' in outcome) {
    const { code, message } = outcome.refusal;
    const advice =
      code === 'nothing_to_compact'
        ? 'Nothing was changed.'
        : code === 'empty_summary'
          ? 'The history is unchanged; try again, or use another model.'
          : raiseBudget(provider.model);
    await scope.recorder.record([payloads.agentError(`${message} ${advice}`, code)]);
    return 'failed';
  }
  await scope.recorder.record([outcome.payload]);
  return 'compacted';
}

function raiseBudget(model: string): string {
  return (
    `If the model's context window is larger, raise its budget in ~/.dsh/config.json ` +
    `({"models": {"${model}": {"contextBudget": N}}}) or with --context-budget N; else start a new session.`
  );
}
