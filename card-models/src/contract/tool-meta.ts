import type { FileDiff } from './hunks.js';

/**
 * The `meta` shapes first-party tools record (SPEC section 5). Meta reaches clients as
 * JSON text and is untrusted there: card models check it before use.
 */

/** `read`: where the shown lines come from. */
export interface ReadMeta {
  path: string;
  /** First line shown, 1-based. */
  offset: number;
  /** Number of lines shown. */
  lines: number;
  totalLines: number;
  /** Highlighting language guessed from the file name, or '' when unknown. */
  lang: string;
}

/** `write` and `edit`: the applied change per file. */
export interface DiffMeta {
  diffs: FileDiff[];
}

/** `grep`: matches grouped by file. */
export interface MatchesMeta {
  shape: 'matches';
  files: { path: string; matches: { lineNumber: number; line: string }[] }[];
  truncated: boolean;
  /** Total matches found, including those not listed. */
  total: number;
}

/** `glob`: matching paths. */
export interface PathsMeta {
  shape: 'paths';
  paths: string[];
  truncated: boolean;
  total: number;
}

/** `web_search`: sources and an optional answer. */
export interface WebSearchMeta {
  sources: { url: string; title: string; snippet: string; publishedAt?: string }[];
  answer?: string;
  truncated: boolean;
}

/** `web_fetch`: the final URL after redirects and the response status. */
export interface WebFetchMeta {
  url: string;
  statusCode: number;
  truncated: boolean;
}

/** `grep` in a count mode: how many matches each file has. */
export interface CountsMeta {
  shape: 'counts';
  files: { path: string; count: number }[];
  truncated: boolean;
  /** Total matches over every file, including files not listed. */
  total: number;
}

/**
 * Any tool whose work ran as a session of its own (a sub-agent): that child session's
 * id, so clients can link the call to it.
 */
export interface ChildSessionMeta {
  childSessionId: string;
}

/**
 * A background shell job, as imported shell tools record it: a `bash` launch with
 * `background: true`, a read of the job's output, or a request to stop it.
 */
export interface ShellJobMeta {
  job: {
    /** The job (shell) id the agent used. */
    id: string;
    /** The job's command line, when known. */
    command?: string;
    /** `running`, `completed`, `failed`, `killed`... as the agent reported it. */
    status?: string;
    /** The exit code once the job ended. */
    exitCode?: number;
    /** Output read from the job (stdout then stderr), for a read of its output. */
    output?: string;
    /** The file the job writes its output to. */
    outputPath?: string;
  };
}

/** A plan a person approves before the agent acts (an imported plan-mode call). */
export interface PlanMeta {
  /** The plan as Markdown, when the transcript holds it. */
  plan?: string;
  /** The file the plan was saved to. */
  path?: string;
}
