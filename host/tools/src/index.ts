// The host's first-party tools and the runtime the agent loop calls them through.
export type {
  ParseResult,
  Tool,
  ToolCallHead,
  ToolContext,
  ToolErrorInfo,
  ToolValue,
  UserAnswers,
  UserQuestion,
} from './tool.js';
export { ToolFailure } from './tool-failure.js';
export { invalidArguments, schemaArgs, type JsonSchema, type ObjectSchema } from './tool-args.js';
export {
  createToolRuntime,
  resultText,
  type DispatchObserver,
  type ToolDefinition,
  type ToolRunResult,
  type ToolRuntime,
} from './tool-runtime.js';
export {
  createFirstPartyTools,
  type FirstPartyToolOptions,
  type FirstPartyTools,
} from './first-party-tools.js';
export { ShellSessions } from './shell-sessions.js';
export { createShellTool, shellTimeouts, type ShellArgs } from './shell-tool.js';
export { createTerminalSendTool, type TerminalSendArgs } from './terminal-send-tool.js';
export { readTool, type ReadArgs } from './read-tool.js';
export { writeTool, type WriteArgs } from './write-tool.js';
export { editTool, type EditArgs } from './edit-tool.js';
export { strReplaceEditorTool, type StrReplaceEditorArgs } from './str-replace-editor-tool.js';
export { createGrepTool, grepLimits, grepTool, type GrepArgs } from './grep-tool.js';
export { createGlobTool, globTool, type GlobArgs } from './glob-tool.js';
export {
  createWebFetchTool,
  webFetchTool,
  type WebFetchArgs,
  type WebFetchOptions,
} from './web-fetch-tool.js';
export { addressVerdict, parseNetworkRule, type NetworkRule } from './network-rules.js';
export { realPath } from './real-path.js';
export { createWebSearchTool, type WebSearchArgs } from './web-search-tool.js';
export {
  createSearxngProvider,
  searchProviderFromEnv,
  type SearchProvider,
} from './search-provider.js';
export { todoWriteTool, type TodoItem, type TodoWriteArgs } from './todo-write-tool.js';
export { askUserTool, type AskUserArgs } from './ask-user-tool.js';
export { createSkillTool, skillDirs, type SkillArgs } from './skill-tool.js';
export { createRunCodeTool, runCodeLimits, type RunCodeArgs } from './run-code-tool.js';
export { isProcessAlive, processAlive, processTagVariable, ProcessTree } from './process-group.js';

// For other packages: the language a path's extension names (the transcript importers).
export { langFromPath } from './lang-from-path.js';

// For the agent runtime: where an oversized event's whole text is kept (the shell tools'
// spill files), and how a path argument resolves for the approval policy.
export { spillPathFor } from './output-collector.js';
export { isInside } from './real-path.js';
export { resolveToolPath } from './text-file.js';
