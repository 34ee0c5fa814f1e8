import type { RowKind } from './card-types.js';

/** The name clients register the plan renderer under (a card body no first-party tool has). */
export const planRenderer = 'plan';

/**
 * A tool of another agent that imported sessions keep under its own name (its arguments
 * fit no first-party contract): how its row is titled and which first-party tool's
 * renderer draws its card. First-party names never appear here.
 */
interface ImportedTool {
  readonly kind: RowKind;
  readonly title: string;
  /** The first-party tool whose renderer draws the card; '' for the Generic renderer. */
  readonly renderer: string;
}

const importedTools: Readonly<Record<string, ImportedTool>> = {
  LS: { kind: 'search', title: 'List', renderer: 'glob' },
  BashOutput: { kind: 'bash', title: 'Job output', renderer: 'bash' },
  TaskOutput: { kind: 'bash', title: 'Job output', renderer: 'bash' },
  KillBash: { kind: 'bash', title: 'Stop job', renderer: 'bash' },
  KillShell: { kind: 'bash', title: 'Stop job', renderer: 'bash' },
  ExitPlanMode: { kind: 'other', title: 'Plan', renderer: planRenderer },
  EnterPlanMode: { kind: 'other', title: 'Plan mode', renderer: '' },
  Task: { kind: 'other', title: 'Agent', renderer: '' },
  Agent: { kind: 'other', title: 'Agent', renderer: '' },
  NotebookEdit: { kind: 'edit', title: 'Notebook edit', renderer: '' },
  NotebookRead: { kind: 'read', title: 'Notebook', renderer: '' },
};

/** The imported tool of that name, or `undefined`. */
export function importedTool(name: string): ImportedTool | undefined {
  return Object.hasOwn(importedTools, name) ? importedTools[name] : undefined;
}

/**
 * The registry key of the renderer that draws a tool's card: the first-party tool (or
 * `plan`) for an imported tool, the name itself otherwise. Both clients resolve renderers
 * through it, so an imported call gets the same card as its first-party counterpart.
 */
export function rendererName(name: string): string {
  return importedTool(name)?.renderer ?? name;
}

/** `mcp__server__tool` split into its server and tool; `undefined` for other names. */
export function mcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice('mcp__'.length);
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}
