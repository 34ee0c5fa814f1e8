/** Imports Claude Code transcripts into dsh journals, once or live. */
export { findTranscripts, transcriptFile } from './find-transcripts.js';
export {
  importClaudeCode,
  type ImportClaudeCodeOptions,
  type ImportSummary,
} from './import-claude-code.js';
export { importedSessionId, sidechainSessionId, subagentSessionId } from './import-session-ids.js';
export { importStateDirName } from './import-state.js';
export {
  importTranscript,
  type ImportPassOptions,
  type TranscriptFile,
  type TranscriptImport,
} from './import-transcript.js';
export {
  createTranscriptConverter,
  initialConverterState,
  type ConverterState,
  type TimedPayload,
  type TranscriptConverter,
} from './transcript-converter.js';
export { parseTranscriptLine, type TranscriptLine } from './transcript-line.js';
export {
  claudeToolMappings,
  translateToolCall,
  type TranslatedCall,
} from './translate-tool-call.js';
export { translateToolResult, type OpenCall } from './translate-tool-result.js';
export {
  watchClaudeCode,
  type ClaudeCodeWatch,
  type WatchClaudeCodeOptions,
} from './watch-claude-code.js';
