import { isAbsolute, relative, resolve } from 'node:path';
import type { ApprovalPolicy } from '@dsh/providers';

/** What the policy says about one call, with the reason shown to the person asked. */
export interface ApprovalVerdict {
  readonly policy: ApprovalPolicy;
  readonly reason: string;
}

const shellTools = new Set(['bash', 'pwsh', 'terminal_send']);
const fileTools = new Set(['write', 'edit', 'str_replace_editor']);

/**
 * Decides whether a call runs, waits for a person, or is refused. Overrides name a policy per
 * tool; without one, shells ask, file writes outside the session cwd ask, everything else runs.
 */
export function approvalVerdict(
  toolName: string,
  rawArgs: string,
  cwd: string,
  overrides: Readonly<Record<string, ApprovalPolicy>>,
): ApprovalVerdict {
  const override = overrides[toolName];
  if (override !== undefined) {
    return { policy: override, reason: `the approval policy for ${toolName} is "${override}"` };
  }
  if (shellTools.has(toolName)) return { policy: 'ask', reason: 'runs a shell command' };
  if (fileTools.has(toolName)) {
    const path = pathArgument(rawArgs);
    if (path !== undefined && !isInside(cwd, resolve(cwd, path))) {
      return { policy: 'ask', reason: `writes outside the session directory: ${path}` };
    }
  }
  return { policy: 'allow', reason: '' };
}

function pathArgument(rawArgs: string): string | undefined {
  try {
    const args: unknown = JSON.parse(rawArgs);
    if (typeof args !== 'object' || args === null) return undefined;
    const record = args as Record<string, unknown>;
    const path = record['file_path'] ?? record['path'];
    return typeof path === 'string' && path !== '' ? path : undefined;
  } catch {
    return undefined;
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(resolve(root), path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
