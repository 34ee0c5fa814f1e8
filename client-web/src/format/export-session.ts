import { toJsonString } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import { createConversation, type ConversationNode, type ToolCallBlock } from '@dsh/card-models';
import type { ContentBlock } from '@dsh/gen/content';
import { SessionEventSchema, TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import type { SessionService } from '@dsh/gen/service';

/** Messages per page while reading a session for export (the host's most). */
const exportPageSize = 1000;

/** Every event of a session, oldest first, read page by page from the tail back to seq 0. */
export async function readWholeSession(
  client: Client<typeof SessionService>,
  sessionId: string,
): Promise<SessionEvent[]> {
  const pages: SessionEvent[][] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await client.page({ sessionId, beforeSeq, maxMessages: exportPageSize });
    const events = page.events.flatMap((entry) => (entry.event ? [entry.event] : []));
    pages.unshift(events);
    const first = events[0]?.seq;
    if (!page.hasMore || first === undefined || first === 0) break;
    beforeSeq = first;
  }
  return pages.flat();
}

/** One event per line, in the protocol's canonical JSON (what `Page` and `Follow` carry). */
export function sessionJsonl(events: readonly SessionEvent[]): string {
  return events.map((event) => `${toJsonString(SessionEventSchema, event)}\n`).join('');
}

function contentText(content: readonly ContentBlock[]): string {
  return content
    .map((block) => {
      switch (block.block.case) {
        case 'text':
        case 'reasoning':
          return block.block.value.text;
        case 'image':
          return `[image: ${block.block.value.mediaType}, ${block.block.value.data.length} bytes]`;
        case 'toolCall':
          return `[tool call ${block.block.value.name}]`;
        default:
          return '';
      }
    })
    .join('\n');
}

/** A fence longer than any backtick run in `text`, so the text cannot close it. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function toolMarkdown(tool: ToolCallBlock, depth = 0): string {
  const head = `${'  '.repeat(depth)}- **${tool.name || tool.callId}** (${tool.status})`;
  const parts = [head, '', fence(tool.argsRaw || '{}', 'json')];
  const output = tool.result ? contentText(tool.result.content) : '';
  if (output !== '') parts.push('', fence(output));
  for (const sub of tool.subCalls) parts.push('', toolMarkdown(sub, depth + 1));
  return parts.join('\n');
}

function nodeMarkdown(node: ConversationNode): string | undefined {
  switch (node.kind) {
    case 'user':
      return `## You\n\n${contentText(node.content)}`;
    case 'steering':
      return `## Steering (turn ${node.turn})\n\n${contentText(node.content)}`;
    case 'context':
      return `<details><summary>Context${node.source ? ` · ${node.source}` : ''}</summary>\n\n${fence(contentText(node.content))}\n\n</details>`;
    case 'assistant':
      return [
        '## Assistant',
        ...node.blocks.map((block) =>
          block.kind === 'text'
            ? block.text
            : block.kind === 'reasoning'
              ? `<details><summary>Reasoning</summary>\n\n${fence(block.text)}\n\n</details>`
              : toolMarkdown(block.tool),
        ),
      ].join('\n\n');
    case 'tool-result':
      return toolMarkdown(node.tool);
    case 'turn-end':
      return node.reason === TurnEndReason.COMPLETED
        ? `---`
        : `--- *turn ${node.turn} ${node.reason === TurnEndReason.CANCELLED ? 'cancelled' : 'ended with an error'}*`;
    case 'agent-error':
      return `> **Agent error** ${node.code ? `(${node.code})` : ''}: ${node.message}`;
    case 'compaction':
      return `--- *context compacted: ${node.tokensBefore} → ${node.tokensAfter} tokens*\n\n<details><summary>Summary</summary>\n\n${node.summary}\n\n</details>`;
    case 'unknown':
      return undefined;
    default: {
      const unhandled: never = node;
      return String(unhandled);
    }
  }
}

/**
 * The session as Markdown: its title, then each message in order (assistant text as it
 * was written, tool calls with their arguments and output in fences that the content
 * cannot close), so it reads on its own in any Markdown viewer.
 */
export function sessionMarkdown(title: string, events: readonly SessionEvent[]): string {
  const conversation = createConversation();
  const snapshot = conversation.apply({ kind: 'replace', events: [...events] });
  const body = snapshot.nodes.flatMap((node) => nodeMarkdown(node) ?? []);
  return `# ${title}\n\n${body.join('\n\n')}\n`;
}

/** Saves text as a file through the browser's download. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
