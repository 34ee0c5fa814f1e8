/**
 * client-tui: the blessed terminal client. It draws card-models' props as text and reads
 * sessions through the live data path of @dsh/client-live over Connect from Node.
 */

// Command line.
export { runTui } from './cli/run-tui.js';
export {
  defaultHostUrl,
  parseTuiArgs,
  tuiUsage,
  type TuiConfig,
  type TuiRequest,
} from './cli/parse-tui-args.js';

export { runSsh } from './cli/run-ssh.js';
export {
  defaultSshPort,
  parseSshArgs,
  sshUsage,
  type SshConfig,
  type SshRequest,
} from './cli/parse-ssh-args.js';

// The SSH server (dsh ssh).
export {
  startSshServer,
  type ChannelClient,
  type ChannelTerminal,
  type SshAccess,
  type SshServer,
  type SshServerOptions,
} from './ssh/start-ssh-server.js';
export { loadOrCreateHostKey, readAuthorizedKeys, type AuthorizedKeys } from './ssh/ssh-keys.js';
export { accessPolicy, fingerprint, isLoopbackAddress } from './ssh/ssh-access.js';

// The client.
export { createTuiApp, type TuiApp, type TuiAppOptions } from './ui/create-tui-app.js';
export { createSessionClient, type SessionClient } from './data/session-client.js';

// Drawing cards and conversations as text (used by the app and its snapshot tests).
export { createTuiRegistry } from './cards/tui-registry.js';
export { renderToolCard, cardHead } from './cards/render-tool-card.js';
export type {
  CardContext,
  CardMode,
  TuiCardRenderer,
  TuiRendererRegistry,
} from './cards/card-renderer.js';
export {
  createConversationRenderer,
  type ConversationRenderer,
} from './conversation/render-conversation.js';
export type { ConversationItem } from './conversation/conversation-item.js';
export {
  createConversationView,
  type ConversationView,
  type ViewportFrame,
} from './ui/conversation-view.js';

// Markdown of assistant text.
export {
  createMarkdownStream,
  markdownLines,
  type MarkdownStream,
} from './markdown/markdown-lines.js';
export {
  markdownSegments,
  createSegmentScanner,
  type SegmentScanner,
} from './markdown/markdown-segments.js';

// Text.
export { sanitizeText } from './text/sanitize-text.js';
export { detectColorDepth, type ColorDepth } from './text/color-depth.js';
export {
  plainText,
  seg,
  type Segment,
  type StyledLine,
  type TextStyle,
} from './text/styled-line.js';
export { sgrParams, toSgr } from './text/to-sgr.js';
export { lineWidth, textWidth, truncateLine, wrapLine } from './text/text-width.js';
export { glyphsOf, type Glyph } from './text/glyphs.js';

// The screen: frames of glyph cells and the writer that sends what changed.
export { createFrame, frameRowText, putLine, putLines, type Cell, type Frame } from './ui/frame.js';
export { createTerminalWriter, type TerminalWriter } from './ui/terminal-writer.js';
