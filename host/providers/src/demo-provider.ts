import { create } from '@bufbuild/protobuf';
import { BlockType, ContentBlockSchema, UsageSchema } from '@dsh/gen/content';
import { demoSteps, demoSummary, type DemoStep } from './demo-script.js';
import { demoSummary as compactionSummary, stepAfterSummary } from './demo-summary.js';
import {
  compactionSummaryHeading,
  type ModelProvider,
  type ProviderChunk,
  type ProviderMessage,
  type ProviderRequest,
} from './provider.js';
import { ProviderError } from './provider-error.js';
import { sleep } from './retry-delay.js';

/** Options of the offline demo model. */
export interface DemoProviderOptions {
  /** The host's own URL, fetched by the web_fetch step (skipped when absent). */
  readonly hostUrl?: string;
  /** Pause between streamed chunks, so clients see text arrive (default 15 ms). */
  readonly chunkDelayMs?: number;
}

const callIdPattern = /^demo-\d+-(\d+)-\d+$/;

/**
 * The offline demo model: a deterministic script, honest about being one, that walks
 * through every first-party tool the session offers on its real working directory and
 * streams its text in small chunks like a real model. A prompt containing the word "fail"
 * makes it report a simulated provider failure. Asked to summarise (a compaction), it
 * writes a mechanical summary that says what it is; an instruction containing "fail"
 * makes that fail too. Its usage is an estimate: UTF-8 bytes / 3 of messages and tools.
 */
export function createDemoProvider(options: DemoProviderOptions = {}): ModelProvider {
  const delay = options.chunkDelayMs ?? 15;
  return {
    model: 'demo',
    async *stream(request): AsyncGenerator<ProviderChunk> {
      if (request.purpose === 'compaction') {
        const ask = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
        if (/keep this in particular: .*\bfail\b/i.test(ask)) {
          throw new ProviderError(
            'provider_unavailable',
            'The demo model simulates a failed summary because the instruction contains "fail".',
          );
        }
        const text = compactionSummary(request.messages);
        yield* streamText(text, 0, delay, request);
        yield { case: 'usage', value: estimatedUsage(request, text) };
        yield { case: 'finish', value: { $typeName: 'dsh.session.v1.Finish', reason: 'stop' } };
        return;
      }
      const position = scriptPosition(request.messages);
      if (position.next === 0 && /\bfail\b/i.test(position.prompt)) {
        throw new ProviderError(
          'provider_unavailable',
          'The demo model simulates a provider failure because the prompt contains "fail". Send another prompt to continue.',
        );
      }
      const available = new Set(request.tools.map((t) => t.name));
      const steps = demoSteps({
        cwd: request.cwd ?? process.cwd(),
        prompt: position.prompt,
        hostUrl: options.hostUrl,
      })
        .map((step) => ({ ...step, calls: step.calls.filter((c) => available.has(c.name)) }))
        .filter((step) => step.calls.length > 0);
      const step: DemoStep = steps[position.next] ?? {
        text: demoSummary(position.answer),
        calls: [],
      };
      const text = position.steering
        ? `You said: "${position.steering}". I am a script and cannot change course, so I carry on.\n\n${step.text}`
        : step.text;
      const pause = (): Promise<void> =>
        sleep(delay, request.signal).catch(() => {
          throw new ProviderError('aborted', 'The model step was cancelled.');
        });
      let index = 0;
      for (const [kind, body] of [
        ['reasoning', step.reasoning],
        ['text', text],
      ] as const) {
        if (!body) continue;
        yield {
          case: 'blockStart',
          value: {
            $typeName: 'dsh.session.v1.BlockStart',
            index,
            blockType: kind === 'text' ? BlockType.TEXT : BlockType.REASONING,
          },
        };
        for (const piece of pieces(body, 12)) {
          await pause();
          yield kind === 'text'
            ? {
                case: 'textDelta',
                value: { $typeName: 'dsh.session.v1.TextDelta', index, text: piece },
              }
            : {
                case: 'reasoningDelta',
                value: { $typeName: 'dsh.session.v1.ReasoningDelta', index, text: piece },
              };
        }
        const block = create(ContentBlockSchema, { block: { case: kind, value: { text: body } } });
        yield { case: 'blockEnd', value: { $typeName: 'dsh.session.v1.BlockEnd', index, block } };
        index++;
      }
      for (const [n, call] of step.calls.entries()) {
        const id = `demo-${request.messages.length}-${position.next}-${n}`;
        const args = JSON.stringify(call.args);
        yield {
          case: 'blockStart',
          value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType: BlockType.TOOL_CALL },
        };
        for (const [i, piece] of pieces(args, 24).entries()) {
          await pause();
          yield {
            case: 'toolCallDelta',
            value: {
              $typeName: 'dsh.session.v1.ToolCallDelta',
              index,
              id,
              name: i === 0 ? call.name : undefined,
              argumentsDelta: piece,
            },
          };
        }
        const block = create(ContentBlockSchema, {
          block: { case: 'toolCall', value: { id, name: call.name, arguments: args } },
        });
        yield { case: 'blockEnd', value: { $typeName: 'dsh.session.v1.BlockEnd', index, block } };
        index++;
      }
      yield { case: 'usage', value: estimatedUsage(request, text) };
      yield {
        case: 'finish',
        value: {
          $typeName: 'dsh.session.v1.Finish',
          reason: step.calls.length > 0 ? 'tool_calls' : 'stop',
        },
      };
    },
  };
}

/**
 * Usage the demo reports, an estimate (it has no tokenizer): UTF-8 bytes / 3 of the
 * messages and tools it was sent and of what it wrote, the host's own estimate.
 */
function estimatedUsage(request: ProviderRequest, output: string) {
  const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
  const input =
    request.messages.reduce((sum, m) => sum + bytes(m.content), 0) +
    (request.tools.length === 0 ? 0 : bytes(JSON.stringify(request.tools)));
  return create(UsageSchema, {
    inputTokens: Math.ceil(input / 3),
    outputTokens: Math.ceil(bytes(output) / 3),
  });
}

/** Streams `text` as one text block at `index`, in small pieces. */
async function* streamText(
  text: string,
  index: number,
  delay: number,
  request: ProviderRequest,
): AsyncGenerator<ProviderChunk> {
  yield {
    case: 'blockStart',
    value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType: BlockType.TEXT },
  };
  for (const piece of pieces(text, 24)) {
    await sleep(delay, request.signal).catch(() => {
      throw new ProviderError('aborted', 'The model step was cancelled.');
    });
    yield {
      case: 'textDelta',
      value: { $typeName: 'dsh.session.v1.TextDelta', index, text: piece },
    };
  }
  const block = create(ContentBlockSchema, { block: { case: 'text', value: { text } } });
  yield { case: 'blockEnd', value: { $typeName: 'dsh.session.v1.BlockEnd', index, block } };
}

/** Where the script stands, read from the conversation: the next step and what was said. */
function scriptPosition(messages: readonly ProviderMessage[]): {
  next: number;
  prompt: string;
  steering: string | undefined;
  answer: string | undefined;
} {
  let lastAssistant = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'assistant') {
      lastAssistant = i;
      break;
    }
  }
  const assistant = messages[lastAssistant];
  const match =
    assistant?.role === 'assistant' ? callIdPattern.exec(assistant.toolCalls[0]?.id ?? '') : null;
  // After a compaction that kept no assistant message, the summary says where the tour is.
  const summary = messages.findLast(
    (m) => m.role === 'user' && m.content.startsWith(compactionSummaryHeading),
  );
  const next = match
    ? Number(match[1]) + 1
    : lastAssistant === -1 && summary !== undefined
      ? (stepAfterSummary(summary.content) ?? 0)
      : 0;
  const userTexts = messages
    .slice(lastAssistant + 1)
    .flatMap((m) =>
      m.role === 'user' &&
      !m.content.startsWith('Working directory:') &&
      !m.content.startsWith(compactionSummaryHeading)
        ? [m.content]
        : [],
    );
  const answerMessage = messages.findLast(
    (m) => m.role === 'tool' && /Is this tour useful\?/.test(m.content),
  );
  return {
    next,
    // A new turn answers the latest prompt: a failed turn leaves no assistant message,
    // so older prompts (such as the one that asked it to fail) are still in view.
    prompt: (next === 0 ? userTexts.at(-1) : userTexts[0]) ?? '',
    steering: next > 0 ? userTexts.at(-1) : undefined,
    answer: answerMessage?.content,
  };
}

/** Splits text into pieces of about `size` characters, cut after spaces where possible. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    const space = text.lastIndexOf(' ', end);
    if (end < text.length && space > at) end = space + 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}
