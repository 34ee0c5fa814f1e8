import { basename, dirname, join } from 'node:path';
import { importStatePath, loadImportState } from '../import-state.js';
import { importedSessionId, subagentSessionId, transcriptName } from './import-session-ids.js';
import { chainOfPrompt, type SidechainRoutes } from './sidechain-routes.js';
import { sidechainSessionId } from './import-session-ids.js';
import type { ConverterLinks, ConverterState } from './transcript-converter.js';
import type { TranscriptFile } from './import-transcript.js';

/**
 * True for the sub-agent transcripts Claude Code runs for itself (compaction, prompt
 * suggestions: `agent-acompact-*`, `agent-aprompt_suggestion-*`), which are not
 * sub-agents of the conversation and are not imported.
 */
export function isInternalAgent(path: string): boolean {
  return /^agent-a[a-z_]{2,}-/.test(basename(path));
}

/** The agent id a sub-agent transcript's name carries (`agent-<id>.jsonl`). */
export function agentIdOf(path: string): string | undefined {
  return /^agent-(.+)\.jsonl$/i.exec(basename(path))?.[1];
}

/**
 * The links of a main transcript's converter: a Task call's sub-agent is the session of
 * `<session>/subagents/agent-<agentId>.jsonl` (Claude Code 2.x), or the interleaved
 * sidechain whose first prompt is the call's prompt (1.x).
 */
export function mainLinks(
  file: TranscriptFile,
  mainId: () => string,
  routes: () => SidechainRoutes,
): ConverterLinks {
  return {
    childSession({ agentId, prompt }) {
      if (agentId !== undefined && agentId !== '') {
        const path = `agent-${agentId}.jsonl`;
        if (isInternalAgent(path)) return undefined;
        return subagentSessionId(transcriptName(file.path), path);
      }
      if (prompt === undefined || prompt.trim() === '') return undefined;
      const key = chainOfPrompt(routes(), prompt);
      return key === undefined
        ? undefined
        : sidechainSessionId(mainId(), Number(key.slice('side-'.length)));
    },
  };
}

/** The parent's session and the Task call that started a sub-agent, as far as known. */
export interface ParentCall {
  readonly sessionId: string;
  readonly callId: string | undefined;
  readonly description: string | undefined;
}

/**
 * The Task call of the parent transcript that ran the sub-agent transcript `file`
 * (`<project>/<session>/subagents/agent-<id>.jsonl`), read from the parent's import
 * state: its converter records agent ids as it meets them.
 */
export async function parentCallOf(
  dataDir: string,
  file: TranscriptFile,
  parentClaudeId: string,
): Promise<ParentCall> {
  const sessionId = importedSessionId(parentClaudeId);
  const agentId = agentIdOf(file.path);
  const parentPath = join(dirname(dirname(dirname(file.path))), `${parentClaudeId}.jsonl`);
  const state = await loadImportState<ConverterState>(
    importStatePath(dataDir, parentPath),
    parentPath,
  );
  const converter = typeof state === 'object' ? state.targets.main?.converter : undefined;
  const callId =
    agentId !== undefined &&
    converter?.agents !== undefined &&
    Object.hasOwn(converter.agents, agentId)
      ? converter.agents[agentId]
      : undefined;
  return { sessionId, callId, description: describeCall(converter, callId) };
}

/**
 * The calls a converter knows by id: the open ones and those of the message still being
 * merged (a Task call whose sidechain starts before the next assistant line is read).
 */
export function knownCalls(
  converter: ConverterState,
): Iterable<[string, { readonly name: string; readonly args: string }]> {
  const pending = (converter.pending?.blocks ?? []).flatMap((block) =>
    block.kind === 'tool' ? [[block.id, block] as [string, { name: string; args: string }]] : [],
  );
  return [...Object.entries(converter.openCalls), ...pending];
}

/** The description argument of an open (or still merging) Task call. */
export function describeCall(
  converter: ConverterState | undefined,
  callId: string | undefined,
): string | undefined {
  if (converter === undefined || callId === undefined) return undefined;
  for (const [id, call] of knownCalls(converter)) {
    if (id !== callId) continue;
    try {
      const args = JSON.parse(call.args) as Record<string, unknown>;
      return typeof args.description === 'string' ? args.description : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The text of the context row a sub-agent session starts with. */
export function parentCallText(parent: ParentCall): string {
  const call =
    parent.description !== undefined
      ? `the Task call "${parent.description}"`
      : parent.callId !== undefined
        ? `Task call ${parent.callId}`
        : 'a Task call';
  return `Sub-agent started by ${call} in session ${parent.sessionId}`;
}
