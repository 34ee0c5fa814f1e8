/** Card models: pure functions from a tool block and path facts to the props both clients draw. */

// Deriving cards.
export { deriveCard } from './derive-card.js';
export { createCardCache, type CardCache } from './card-cache.js';
export { cardStatus } from './card-status.js';
export type {
  Card,
  CardBody,
  CardState,
  CardStatus,
  CodeCard,
  GenericBody,
  GenericRow,
  QuestionCard,
  QuestionItem,
  QuestionOption,
  RowKind,
  SessionLink,
  SkillCard,
  TerminalCard,
  TodoCard,
  TodoItem,
} from './card-types.js';

// Each card on its own (`undefined` means the Generic card).
export { genericRow, flattenContent, summaryMaxLength } from './generic-row.js';
export { terminalCard } from './terminal-card.js';
export { todoCard } from './todo-card.js';
export { questionCard } from './question-card.js';
export { skillCard } from './skill-card.js';
export { codeCard } from './code-card.js';
export { planCard, type PlanCard } from './plan-card.js';
export { contextView, type ContextView } from './context-view.js';
export { mcpToolName, planRenderer, rendererName } from './imported-tools.js';
export { diffCard, type DiffCard, type DiffHunk, type DiffLine } from './diff-card.js';
export { wordDiff, wordDiffMaxLineLength, type WordSpan } from './word-diff.js';
export {
  readCard,
  type ReadCard,
  type ReadLine,
  type RunningReadCard,
  type SettledReadCard,
} from './read-card.js';
export {
  searchCard,
  type RunningSearchCard,
  type SearchCard,
  type SearchFile,
  type SearchMatch,
  type SearchRow,
  type SettledSearchCard,
} from './search-card.js';
export {
  httpHref,
  webCard,
  type WebCard,
  type WebFetchCard,
  type WebSearchCard,
  type WebSource,
} from './web-card.js';
export { highlightLines } from './highlight-lines.js';
export { highlightLinesWith, type HighlightToken } from './highlight-tokens.js';
export { previewLineCount } from './preview-lines.js';
export { deliverables, deliverablesByTurn, type Deliverable } from './deliverables.js';
export {
  combinedDiff,
  combinedDiffMaxChars,
  sessionChanges,
  type CombinedDiff,
  type FileChange,
  type FileEdit,
} from './session-changes.js';

// Terminal output.
export {
  ScreenSplitter,
  splitScreens,
  type ScreenBreak,
  type ScreenPiece,
  type ScreenSegment,
} from './screen-breaks.js';
export { controlRuns, visibleControls, type ControlRun } from './visible-controls.js';
export {
  defaultTerminalCols,
  limitTerminalLines,
  renderTerminalOutput,
  terminalPreview,
  type TerminalColor,
  type TerminalLine,
  type TerminalPreview,
  type TerminalRenderOptions,
  type TerminalSpan,
} from './terminal-output.js';
export {
  liveOutputNote,
  liveTerminalPreview,
  terminalCardPreview,
  terminalLines,
} from './terminal-view.js';
export { LiveTerminal } from './live-terminal.js';
export { loadTerminalEmulator, terminalEmulatorLoaded } from './terminal-emulator.js';

// Paths.
export {
  abbreviateHome,
  displayPath,
  normalizePath,
  resolveWorkdir,
  type PathFacts,
} from './path-facts.js';
