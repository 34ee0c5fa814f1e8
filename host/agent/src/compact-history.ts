import { create } from '@bufbuild/protobuf';
import { UsageSchema, type Usage } from '@dsh/gen/content';
import { CompactionReason, ContextCompactionSchema } from '@dsh/gen/events';
import type { EventPayload } from '@dsh/journal';
import type { ModelProvider, ProviderMessage } from '@dsh/providers';
import {
  compactionSystemPrompt,
  compactionUserPrompt,
  type CompactionPromptFacts,
} from './compaction-prompt.js';
import { cutForModel } from './cut-for-model.js';
import type { HistoryEntry, ModelHistory } from './model-history.js';
import { summaryText } from './model-history.js';
import { estimateTokens, messageTokens } from './token-estimate.js';

/**
 * Share of the budget left after the system prompt and tools that an automatic
 * compaction keeps whole (the newest messages), and that its summary is asked to fit.
 */
export const keptShare = 0.3;
export const summaryShare = 0.25;

/** What one compaction works on. */
export interface CompactionRequest {
  readonly provider: ModelProvider;
  readonly history: ModelHistory;
  readonly budget: number;
  /** Estimated tokens of a step request's system prompt and tools. */
  readonly fixed: number;
  readonly reason: CompactionReason;
  readonly instruction: string;
  readonly turn: number;
  readonly cwd: string;
  readonly signal: AbortSignal;
}

/** A failure that is not the provider's: the budget cannot hold what it must. */
export interface CompactionRefusal {
  readonly message: string;
  readonly code: 'context_budget_too_small' | 'nothing_to_compact' | 'empty_summary';
}

/**
 * Compacts `history`: picks a cut (an automatic compaction keeps the newest messages
 * that fit `keptShare` of the budget; a requested one keeps nothing), has the model
 * summarise everything before it (the earlier summary included) in as many passes as
 * the budget needs, and returns the `context/compaction` payload to record. Throws what
 * the provider throws (`ProviderError`, `aborted` on cancel).
 */
export async function compactHistory(
  request: CompactionRequest,
): Promise<{ payload: EventPayload } | { refusal: CompactionRefusal }> {
  const { history, budget } = request;
  const entries = history.entries();
  const room = budget - request.fixed;
  const keep = request.reason === CompactionReason.AUTOMATIC ? Math.floor(room * keptShare) : 0;
  const cut = cutIndex(entries, keep);
  if (cut === 0) {
    return entries.length === 0
      ? { refusal: { code: 'nothing_to_compact', message: 'There is nothing to compact yet.' } }
      : { refusal: tooSmall(request, 'the newest messages alone fill it') };
  }
  if (room < 512) return { refusal: tooSmall(request, 'there is no room for a summary') };
  const summaryTokens = Math.max(128, Math.min(4096, Math.floor(room * summaryShare)));
  const facts = (previous: string | undefined): CompactionPromptFacts => ({
    cwd: request.cwd,
    words: Math.floor(summaryTokens * 0.7),
    previous,
    instruction: request.instruction,
  });
  const overhead =
    estimateTokens(compactionSystemPrompt(facts(undefined))) +
    // With an empty earlier summary, so the words around one are counted.
    estimateTokens(compactionUserPrompt(facts(''), '')) +
    64;
  // Each pass carries the summary so far, cut to twice the length asked for.
  const largest = budget - overhead - 2 * summaryTokens;
  if (largest < 256) return { refusal: tooSmall(request, 'a summarising request does not fit') };

  const lines = transcriptLines(entries.slice(0, cut), Math.floor(largest / 2));
  let summary = history.summary?.text;
  const usage = create(UsageSchema);
  let sawUsage = false;
  for (let at = 0; at < lines.length;) {
    const space = budget - overhead - (summary === undefined ? 0 : estimateTokens(summary));
    const piece: string[] = [];
    let tokens = 0;
    while (at < lines.length && (piece.length === 0 || tokens + lines[at]!.tokens <= space)) {
      piece.push(lines[at]!.text);
      tokens += lines[at]!.tokens;
      at++;
    }
    const text = await summarise(request, facts(summary), piece.join('\n'), (reported) => {
      sawUsage = true;
      addUsage(usage, reported);
    });
    if (text.trim() === '') {
      return {
        refusal: {
          code: 'empty_summary',
          message: `The model ${request.provider.model} answered the summary request with no text.`,
        },
      };
    }
    // A model that ignores the length asked for must not fill the budget with its summary.
    summary = cutForModel(text.trim(), 2 * summaryTokens, 'the summary was longer than asked');
  }
  const kept = entries.slice(cut);
  const keptFromSeq = kept[0]?.seq ?? history.nextSeq;
  const tokensAfter =
    request.fixed +
    messageTokens({ role: 'user', content: summaryText(summary ?? '') }) +
    kept.reduce((n, e) => n + e.tokens, 0);
  return {
    payload: {
      case: 'contextCompaction',
      value: create(ContextCompactionSchema, {
        summary: summary ?? '',
        replacedFromSeq: history.summary?.keptFromSeq ?? 0,
        keptFromSeq,
        tokensBefore: history.tokens(request.fixed),
        tokensAfter,
        contextBudget: budget,
        reason: request.reason,
        instruction: request.instruction,
        model: request.provider.model,
        ...(sawUsage ? { usage } : {}),
        turn: request.turn,
      }),
    },
  };
}

/** The first entry kept: the newest entries whose tokens fit `keep` stay whole. */
function cutIndex(entries: readonly HistoryEntry[], keep: number): number {
  let cut = entries.length;
  let tokens = 0;
  while (cut > 0 && tokens + entries[cut - 1]!.tokens <= keep) {
    tokens += entries[cut - 1]!.tokens;
    cut--;
  }
  return cut;
}

function tooSmall(request: CompactionRequest, why: string): CompactionRefusal {
  return {
    code: 'context_budget_too_small',
    message:
      `The context budget of ${request.provider.model} (${request.budget} tokens) is too small ` +
      `to compact into: ${why} (the system prompt and tool definitions take about ` +
      `${request.fixed} tokens).`,
  };
}

/** The transcript lines of `entries`, each cut to at most `maxTokens`. */
function transcriptLines(
  entries: readonly HistoryEntry[],
  maxTokens: number,
): { text: string; tokens: number }[] {
  return entries.flatMap((entry) =>
    entry.messages.map((message) => {
      const text = cutForModel(
        transcriptLine(message),
        maxTokens,
        'the transcript leaves the rest out',
      );
      return { text, tokens: estimateTokens(text) + 1 };
    }),
  );
}

function transcriptLine(message: ProviderMessage): string {
  switch (message.role) {
    case 'system':
      return `[system]\n${message.content}`;
    case 'user':
      return `[user]\n${message.content}`;
    case 'assistant':
      return [
        `[assistant]${message.content === '' ? '' : `\n${message.content}`}`,
        ...message.toolCalls.map(
          (call) => `[assistant called ${call.name} (call ${call.id}) with ${call.arguments}]`,
        ),
      ].join('\n');
    case 'tool':
      return `[result of call ${message.toolCallId}]\n${message.content}`;
    default: {
      const unknownRole: never = message;
      throw new Error(`unknown message role ${JSON.stringify(unknownRole)}`);
    }
  }
}

/** One summarising call: the summary text it streamed. */
async function summarise(
  request: CompactionRequest,
  facts: CompactionPromptFacts,
  transcript: string,
  onUsage: (usage: Usage) => void,
): Promise<string> {
  const texts: string[] = [];
  const finals = new Map<number, string>();
  for await (const chunk of request.provider.stream({
    model: request.provider.model,
    messages: [
      { role: 'system', content: compactionSystemPrompt(facts) },
      { role: 'user', content: compactionUserPrompt(facts, transcript) },
    ],
    tools: [],
    signal: request.signal,
    cwd: request.cwd,
    purpose: 'compaction',
  })) {
    switch (chunk.case) {
      case 'textDelta':
        texts[chunk.value.index] = (texts[chunk.value.index] ?? '') + chunk.value.text;
        break;
      case 'blockEnd': {
        const block = chunk.value.block?.block;
        if (block?.case === 'text') finals.set(chunk.value.index, block.value.text);
        break;
      }
      case 'usage':
        onUsage(chunk.value);
        break;
      default:
        break;
    }
  }
  for (const [index, text] of finals) texts[index] = text;
  return texts.filter((t) => t !== undefined).join('\n');
}

function addUsage(total: Usage, usage: Usage): void {
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
  total.cacheReadTokens += usage.cacheReadTokens;
  total.cacheWriteTokens += usage.cacheWriteTokens;
  total.reasoningTokens += usage.reasoningTokens;
}
