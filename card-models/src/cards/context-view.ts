import type { ConversationNode } from '../conversation/types.js';
import { parseJsonObject, stringField } from './card-json.js';
import type { SessionLink } from './card-types.js';
import { flattenContent, oneLine } from './generic-row.js';

/** A context row as both clients draw it: collapsed to its label and summary, open to its text. */
export interface ContextView {
  /** What kind of context this is, in words (`Hooks`, `Compaction`, `Context · host`). */
  readonly label: string;
  /** The first line of the text, for the collapsed row. */
  readonly summary: string;
  /** The whole text. */
  readonly text: string;
  /** Another session the row is about (a sub-agent's parent, a continued session). */
  readonly link: SessionLink | undefined;
}

type ContextNode = Extract<ConversationNode, { kind: 'context' }>;

/** Labels of the context envelopes importers write, by envelope. */
const labels: Readonly<Record<string, string>> = {
  'claude-code/turn-notes': 'Hooks and bookkeeping',
  'claude-code/compaction': 'Compaction',
  'claude-code/compact-summary': 'Compaction summary',
  'claude-code/meta': 'Claude Code context',
  'claude-code/hook-context': 'Hook output',
  'claude-code/command': 'Command output',
  'claude-code/task-notification': 'Background task',
  'claude-code/notice': 'Claude Code notice',
  'claude-code/pull-request': 'Pull request',
  'claude-code/subagent': 'Sub-agent',
  'codex/compaction': 'Compaction',
  'codex/context': 'Codex context',
  'codex/notice': 'Codex notice',
  'codex/review': 'Review',
  'codex/subagent': 'Sub-agent',
  'import/continued': 'Continued session',
};

const linkLabels: Readonly<Record<string, string>> = {
  'claude-code/subagent': 'Open the parent session',
  'codex/subagent': 'Open the parent session',
  'import/continued': 'Open the imported session',
};

/**
 * How a context node is drawn: a label for its envelope (importers' envelopes have their
 * own words; anything else reads `Context · <source>`), its first line, its text, and the
 * session its meta names (`{sessionId}`), if any.
 */
export function contextView(node: ContextNode): ContextView {
  const text = flattenContent(node.content);
  const known = Object.hasOwn(labels, node.envelope) ? labels[node.envelope] : undefined;
  const label = known ?? `Context${node.source ? ` · ${node.source}` : ''}`;
  const sessionId =
    node.metaJson === ''
      ? undefined
      : stringField(parseJsonObject(node.metaJson) ?? {}, 'sessionId');
  const link =
    sessionId === undefined || sessionId === ''
      ? undefined
      : {
          sessionId,
          label:
            (Object.hasOwn(linkLabels, node.envelope) && linkLabels[node.envelope]) ||
            'Open the session',
        };
  return { label, summary: oneLine(text), text, link };
}
