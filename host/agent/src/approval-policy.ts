import type { ApprovalPolicy, ApprovalSettings } from './approval-settings.js';
import { isInside, realPath, resolveToolPath } from '@dsh/tools';

/** What the policy says about one call, with the reason shown to the person asked. */
export interface ApprovalVerdict {
  readonly policy: ApprovalPolicy;
  readonly reason: string;
}

/** The folders a session's file tools work in without asking. */
export interface SessionFolders {
  /** The session's working directory: reads, searches and writes. */
  readonly cwd: string;
  /** The session's spill folder (long output, background logs): reads and searches. */
  readonly spillDir: string;
}

type Access = 'read' | 'search' | 'write';

const shellTools = new Set(['bash', 'pwsh', 'terminal_send']);

/** Which path argument each file tool touches, and how. */
const fileTargets = new Map<string, (args: Record<string, unknown>) => [unknown, Access]>([
  ['read', (args) => [args['file_path'], 'read']],
  ['write', (args) => [args['file_path'], 'write']],
  ['edit', (args) => [args['file_path'], 'write']],
  ['str_replace_editor', (args) => [args['path'], args['command'] === 'view' ? 'read' : 'write']],
  ['grep', (args) => [args['path'] ?? '.', 'search']],
  ['glob', (args) => [args['path'] ?? '.', 'search']],
]);

const verbs: Record<Access, string> = { read: 'reads', search: 'searches', write: 'writes' };

/**
 * Decides whether a call runs, waits for a person, or is refused. An override names the
 * policy of a tool outright. Without one, shells ask; file tools whose path, with every
 * symlink resolved (for a path that does not exist yet, its nearest existing parent's),
 * lies outside the session's folders and the configured `allowPaths` ask; the rest run.
 */
export async function approvalVerdict(
  toolName: string,
  rawArgs: string,
  folders: SessionFolders,
  settings: ApprovalSettings,
): Promise<ApprovalVerdict> {
  const override = Object.hasOwn(settings.overrides, toolName)
    ? settings.overrides[toolName]
    : undefined;
  if (override !== undefined) {
    return { policy: override, reason: `the approval policy for ${toolName} is "${override}"` };
  }
  if (shellTools.has(toolName)) return { policy: 'ask', reason: 'runs a shell command' };
  const target = fileTargets.get(toolName);
  const args = target ? argumentObject(rawArgs) : undefined;
  if (!target || !args) return { policy: 'allow', reason: '' };
  const [path, access] = target(args);
  if (typeof path !== 'string' || path === '') return { policy: 'allow', reason: '' };
  const real = await realPath(resolveToolPath(folders.cwd, path));
  const roots = [
    folders.cwd,
    ...settings.allowPaths.write,
    ...(access === 'write' ? [] : [folders.spillDir, ...settings.allowPaths.read]),
  ];
  for (const root of roots) if (isInside(await realPath(root), real)) return allow;
  const shown = real === resolveToolPath(folders.cwd, path) ? path : `${path} (really ${real})`;
  return { policy: 'ask', reason: `${verbs[access]} outside the session directory: ${shown}` };
}

const allow: ApprovalVerdict = { policy: 'allow', reason: '' };

function argumentObject(rawArgs: string): Record<string, unknown> | undefined {
  try {
    const args: unknown = JSON.parse(rawArgs);
    return typeof args === 'object' && args !== null && !Array.isArray(args)
      ? (args as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
