/**
 * The tool contract shared by the host's tools and the card models: marker strings,
 * the read envelope, the hunk format and the meta shapes. It imports nothing from
 * the rest of card-models, so the host's tool runtime can use it alone.
 */
export {
  backgroundAck,
  errorCodes,
  exitMarker,
  interruptedMessage,
  parseBackgroundAck,
  parseSearchTruncationHint,
  parseShellEnding,
  parseSpillNotice,
  parseTimeoutNotice,
  searchTruncationHint,
  signalMarker,
  spillNotice,
  terminalSendAck,
  timeoutNotice,
  type ShellEnding,
} from './markers.js';
export { langFromPath } from './lang-from-path.js';
export { formatReadEnvelope, parseReadEnvelope, type ReadEnvelope } from './read-envelope.js';
export { computeHunks, hunkContext, isHunk, type FileDiff, type Hunk } from './hunks.js';
export type {
  ChildSessionMeta,
  CountsMeta,
  DiffMeta,
  MatchesMeta,
  PathsMeta,
  PlanMeta,
  ShellJobMeta,
  ReadMeta,
  WebFetchMeta,
  WebSearchMeta,
} from './tool-meta.js';
