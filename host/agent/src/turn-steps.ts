import type { ContentBlock } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import type { ModelProvider } from '@dsh/providers';
import type { ConversationHistory } from './conversation-history.js';
import { runModelStep } from './model-step.js';
import { payloads } from './payloads.js';
import { runToolCall, type TurnScope } from './tool-call-runner.js';

/** Input to a session: a prompt, a queued prompt or a steering message. */
export interface Input {
  readonly content: ContentBlock[];
  readonly source: string;
}

/** What the model steps of one turn run with, beyond the turn's tool-call scope. */
export interface TurnSteps {
  readonly scope: TurnScope;
  readonly provider: ModelProvider;
  readonly history: ConversationHistory;
  readonly systemPrompt: string;
  /** Most model steps the turn may take before it ends with an `agent/error`. */
  readonly maxSteps: number;
  /** Takes the steering input that arrived since the last step. */
  takeSteering(): Input[];
  /** True when steering input waits: the turn takes another step for it. */
  hasSteering(): boolean;
}

/**
 * Runs a turn's model steps: records steering input, streams a step, records the
 * assistant message, runs its tool calls, and repeats while the model calls tools or
 * steering waits. Resolves with `ERROR` at the step limit, `COMPLETED` otherwise (also
 * when the turn's signal aborts); throws what the provider or the journal throws.
 */
export async function runTurnSteps(turn: TurnSteps): Promise<TurnEndReason> {
  const { scope, provider } = turn;
  const { signal, recorder } = scope;
  for (let step = 0; ; step++) {
    const steer = turn.takeSteering();
    if (steer.length > 0) {
      await recorder.record(
        steer.map((s) => payloads.steeringMessage(scope.turn, s.content, s.source)),
      );
    }
    if (step >= turn.maxSteps) {
      const message = `The turn stopped after ${turn.maxSteps} model steps without finishing; send a new prompt to continue.`;
      await recorder.record([payloads.agentError(message, 'step_limit')]);
      return TurnEndReason.ERROR;
    }
    const request = {
      model: provider.model,
      messages: [
        { role: 'system' as const, content: turn.systemPrompt },
        ...turn.history.messages(),
      ],
      tools: scope.runtime.definitions(),
      signal,
      cwd: scope.cwd,
    };
    const result = await runModelStep(provider, request, { turn: scope.turn, step }, recorder);
    if (signal.aborted) return TurnEndReason.COMPLETED;
    await recorder.record([
      payloads.assistantMessage(
        { turn: scope.turn, step },
        result.content,
        result.usage,
        provider.model,
        result.finishReason,
      ),
    ]);
    for (const call of result.toolCalls) await runToolCall(scope, step, call);
    if (signal.aborted) return TurnEndReason.COMPLETED;
    if (result.toolCalls.length === 0 && !turn.hasSteering()) return TurnEndReason.COMPLETED;
  }
}
