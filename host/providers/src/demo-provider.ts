import { create } from '@bufbuild/protobuf';
import { BlockType, ContentBlockSchema, UsageSchema } from '@dsh/gen/content';
import { demoSteps, demoSummary, type DemoStep } from './demo-script.js';
import type { ModelProvider, ProviderChunk, ProviderMessage } from './provider.js';
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
 * makes it report a simulated provider failure.
 */
export function createDemoProvider(options: DemoProviderOptions = {}): ModelProvider {
  const delay = options.chunkDelayMs ?? 15;
  return {
    model: 'demo',
    async *stream(request): AsyncGenerator<ProviderChunk> {
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
      const inputChars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
      const usage = create(UsageSchema, {
        inputTokens: Math.ceil(inputChars / 4),
        outputTokens: Math.ceil(text.length / 4),
      });
      yield { case: 'usage', value: usage };
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
  const next = match ? Number(match[1]) + 1 : 0;
  const userTexts = messages
    .slice(lastAssistant + 1)
    .flatMap((m) =>
      m.role === 'user' && !m.content.startsWith('Working directory:') ? [m.content] : [],
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
