import { homedir } from 'node:os';
import { askUserTool } from './ask-user-tool.js';
import { editTool } from './edit-tool.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { readTool } from './read-tool.js';
import { createRunCodeTool } from './run-code-tool.js';
import type { SearchProvider } from './search-provider.js';
import { createShellTool } from './shell-tool.js';
import { ShellSessions } from './shell-sessions.js';
import { createSkillTool } from './skill-tool.js';
import { strReplaceEditorTool } from './str-replace-editor-tool.js';
import { createTerminalSendTool } from './terminal-send-tool.js';
import { todoWriteTool } from './todo-write-tool.js';
import type { Tool } from './tool.js';
import type { NetworkRule } from './network-rules.js';
import { createWebFetchTool } from './web-fetch-tool.js';
import { createWebSearchTool } from './web-search-tool.js';
import { writeTool } from './write-tool.js';

/** Options of `createFirstPartyTools`. */
export interface FirstPartyToolOptions {
  /** Backend for `web_search`; without one the tool says how to configure it. */
  searchProvider?: SearchProvider;
  /** Home folder for `~/.dsh/skills` (default: the user's). */
  homeDir?: string;
  /** Non-public addresses `web_fetch` may reach (`allowNetworks` in the config file). */
  allowNetworks?: readonly NetworkRule[];
  /** Exact URLs `web_fetch` fetches whatever address they resolve to. */
  trustedUrls?: () => readonly string[];
}

/** The host's tools and the processes they keep. */
export interface FirstPartyTools {
  tools: Tool[];
  /** Persistent shells and background jobs; `dispose` ends them. */
  shells: ShellSessions;
  dispose(): Promise<void>;
}

/** Creates every first-party tool of SPEC section 5 over one set of shell sessions. */
export function createFirstPartyTools(options: FirstPartyToolOptions = {}): FirstPartyTools {
  const shells = new ShellSessions();
  const tools: Tool[] = [
    createShellTool('bash', shells),
    createShellTool('pwsh', shells),
    createTerminalSendTool(shells),
    readTool,
    writeTool,
    editTool,
    strReplaceEditorTool,
    grepTool,
    globTool,
    createWebFetchTool({
      ...(options.allowNetworks ? { allowNetworks: options.allowNetworks } : {}),
      ...(options.trustedUrls ? { trustedUrls: options.trustedUrls } : {}),
    }),
    createWebSearchTool(options.searchProvider),
    todoWriteTool,
    askUserTool,
    createSkillTool(options.homeDir ?? homedir()),
    createRunCodeTool(),
  ];
  return { tools, shells, dispose: () => shells.dispose() };
}
