/** A tool approval policy: run it, ask a person first, or never run it. */
export type ApprovalPolicy = 'allow' | 'ask' | 'deny';

/** Folders outside a session's working directory that file tools use without asking. */
export interface AllowedPaths {
  /** Read and searched (read, grep, glob, str_replace_editor view) without asking. */
  readonly read: readonly string[];
  /** Read, searched and written (write, edit, str_replace_editor) without asking. */
  readonly write: readonly string[];
}

/** Everything the approval policy decides from, as configured. */
export interface ApprovalSettings {
  /** Per-tool policies that replace the defaults (`approvals` in the config file). */
  readonly overrides: Readonly<Record<string, ApprovalPolicy>>;
  readonly allowPaths: AllowedPaths;
}

/** No folder beyond the session's own. */
export const noAllowedPaths: AllowedPaths = { read: [], write: [] };
