/** Imports Claude Code transcripts and Codex rollouts into dsh journals, once or live. */
export { findTranscripts, transcriptFile } from './claude-code/find-transcripts.js';
export {
  importClaudeCode,
  type ImportClaudeCodeOptions,
  type ImportSummary,
} from './claude-code/import-claude-code.js';
export {
  importedSessionId,
  sidechainSessionId,
  subagentSessionId,
} from './claude-code/import-session-ids.js';
export { isInternalAgent } from './claude-code/subagent-links.js';
export { importStateDirName } from './import-state.js';
export {
  importTranscript,
  type ImportPassOptions,
  type TranscriptFile,
  type TranscriptImport,
} from './claude-code/import-transcript.js';
export {
  createTranscriptConverter,
  initialConverterState,
  type ConverterState,
  type FlushMode,
  type TimedPayload,
  type TranscriptConverter,
} from './claude-code/transcript-converter.js';
export { parseTranscriptLine, type TranscriptLine } from './claude-code/transcript-line.js';
export {
  claudeToolMappings,
  translateToolCall,
  type TranslatedCall,
} from './claude-code/translate-tool-call.js';
export { translateToolResult, type OpenCall } from './claude-code/translate-tool-result.js';
export {
  watchClaudeCode,
  type ClaudeCodeWatch,
  type WatchClaudeCodeOptions,
} from './claude-code/watch-claude-code.js';
export { findRollouts, importCodex, type RolloutFile } from './codex/import-codex.js';
export { importRollout } from './codex/import-rollout.js';
export { codexSessionId } from './codex/codex-session-id.js';
export {
  createRolloutConverter,
  initialRolloutState,
  type RolloutConverter,
  type RolloutState,
} from './codex/rollout-converter.js';
export { parseRolloutLine, type RolloutLine } from './codex/rollout-line.js';
export { parsePatch, type PatchFile } from './codex/apply-patch.js';
export { translateCodexCall, translateCodexOutput } from './codex/codex-tools.js';
export { sniffTranscript, type SniffResult, type TranscriptFormat } from './sniff-transcript.js';
export { detectFormats, importDetected } from './import-detected.js';
export { watchCodex } from './codex/watch-codex.js';
