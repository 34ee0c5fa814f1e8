import type { TuiState } from './tui-state.js';

/**
 * Why the open session takes no input from this client, in words that name what to do
 * instead; undefined when it does. An imported or fixture session is read-only on the
 * host; a sub-agent's session is driven by its parent's agent (what a person sends goes
 * to the parent); a host without the `prompt` capability runs no agent.
 */
export function inputLocked(state: TuiState): string | undefined {
  const open = state.open;
  if (open === undefined) return undefined;
  const summary = state.list?.sessions.get(open.id);
  if (summary?.readOnly) {
    return summary.origin
      ? `read-only: imported from ${summary.origin}; this host cannot prompt it`
      : 'read-only: a fixture session; this host cannot prompt it';
  }
  if (summary?.parentId) {
    return "read-only: a sub-agent's session, driven by its parent (u opens the parent)";
  }
  if (!state.canPrompt) return 'read-only: this host runs no agent';
  return undefined;
}
