import type { ContentBlock } from '@dsh/gen/content';
import type { SessionEvent } from '@dsh/gen/events';
import type { ProviderMessage, ProviderToolCall } from '@dsh/providers';

/**
 * The conversation the model sees, folded from the session's own events: user, steering
 * and context input, assistant messages (text and tool calls; reasoning is not sent back)
 * and tool results. Every tool call is answered by a tool message right after its
 * assistant message, so a journal cut short still makes a valid request.
 */
export interface ConversationHistory {
  add(events: readonly SessionEvent[]): void;
  messages(): ProviderMessage[];
}

const missingResult = 'No result was recorded for this call (the host stopped while it ran).';

/** Creates an empty history; feed it every event of the session in seq order. */
export function createConversationHistory(): ConversationHistory {
  type Entry =
    | { kind: 'message'; message: ProviderMessage }
    | { kind: 'assistant'; content: string; toolCalls: ProviderToolCall[] };
  const entries: Entry[] = [];
  const results = new Map<string, string>();

  return {
    add(events) {
      for (const event of events) {
        const payload = event.payload;
        switch (payload.case) {
          case 'userMessage':
          case 'steeringMessage':
          case 'contextMessage':
            entries.push({
              kind: 'message',
              message: { role: 'user', content: textOf(payload.value.content) },
            });
            break;
          case 'assistantMessage': {
            const toolCalls: ProviderToolCall[] = [];
            for (const block of payload.value.content) {
              if (block.block.case === 'toolCall') {
                const { id, name, arguments: args } = block.block.value;
                toolCalls.push({ id, name, arguments: args });
              }
            }
            entries.push({ kind: 'assistant', content: textOf(payload.value.content), toolCalls });
            break;
          }
          case 'toolResult':
            results.set(
              payload.value.callId,
              textOf(payload.value.content) || errorText(payload.value.error?.message),
            );
            break;
          case 'assistantChunk':
          case 'toolCall':
          case 'codeDispatchStart':
          case 'codeDispatch':
          case 'approvalRequested':
          case 'approvalResolved':
          case 'questionRequested':
          case 'questionResolved':
          case 'turnStart':
          case 'turnEnd':
          case 'agentError':
          case 'inputQueued':
          case 'inputUnqueued':
          case 'extension':
          case undefined:
            break;
          default: {
            const unknownCase: never = payload;
            throw new Error(`unhandled event ${JSON.stringify(unknownCase)}`);
          }
        }
      }
    },
    messages() {
      const out: ProviderMessage[] = [];
      for (const entry of entries) {
        if (entry.kind === 'message') {
          out.push(entry.message);
          continue;
        }
        out.push({ role: 'assistant', content: entry.content, toolCalls: entry.toolCalls });
        for (const call of entry.toolCalls) {
          out.push({
            role: 'tool',
            toolCallId: call.id,
            content: results.get(call.id) ?? missingResult,
          });
        }
      }
      return out;
    },
  };
}

function errorText(message: string | undefined): string {
  return message ? `Error: ${message}` : '';
}

/** The text blocks of a message joined; other blocks are left out. */
export function textOf(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.block.case === 'text' ? block.block.value.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}
