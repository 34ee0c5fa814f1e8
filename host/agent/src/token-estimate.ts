import type { ProviderMessage, ProviderTool } from '@dsh/providers';

/**
 * Tokens `text` may take, estimated without the model's tokenizer: one token per three
 * UTF-8 bytes. Tokenizers give English prose about four bytes per token and code or JSON
 * about three; CJK text takes about one token per character (three bytes), so this errs
 * on the large side for every script and a budget it keeps is kept.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 3);
}

/** Tokens a chat message costs beyond its text (role, separators). */
const messageOverhead = 4;

/** The estimated tokens of one message as a request carries it. */
export function messageTokens(message: ProviderMessage): number {
  let tokens = messageOverhead + estimateTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) {
      tokens += messageOverhead + estimateTokens(call.id + call.name + call.arguments);
    }
  }
  return tokens;
}

/** The estimated tokens of the part of every request that is not history. */
export function fixedTokens(systemPrompt: string, tools: readonly ProviderTool[]): number {
  return messageOverhead + estimateTokens(systemPrompt) + estimateTokens(JSON.stringify(tools));
}
