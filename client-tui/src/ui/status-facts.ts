import { abbreviateHome, pendingViews } from '@dsh/card-models';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { lineWidth } from '../text/text-width.js';
import { running } from './key-actions.js';
import { timestampMs } from './relative-time.js';
import {
  compactCount,
  dollars,
  elapsedText,
  latestTurnUsage,
  sessionCost,
  sessionUsage,
} from './session-usage.js';
import type { TuiState } from './tui-state.js';

/** When the open session's running turn started (ms), as far as the client knows. */
export function workingSince(state: TuiState): number | undefined {
  if (!running(state)) return undefined;
  return timestampMs(state.open?.window.state.snapshot.openTurn?.time) ?? state.runningSince;
}

/** Pending approvals and questions a running turn waits for. */
export function waitingCount(state: TuiState): number {
  const pending = state.open?.window.state.snapshot.pending ?? [];
  return pendingViews(pending, running(state)).filter((view) => view.answerable).length;
}

/**
 * The sessions of the list that wait for the person: the open one while its running turn
 * asks an approval or a question (summaries carry no pending items for the others).
 */
export function waitingSessions(state: TuiState): ReadonlySet<string> {
  return state.open !== undefined && waitingCount(state) > 0 ? new Set([state.open.id]) : new Set();
}

/**
 * The running turn's part of the status line: how long it has been working and the keys
 * that stop it; the approvals and questions waiting for the person.
 */
export function turnParts(state: TuiState, now: number): StyledLine {
  const parts: StyledLine[number][] = [];
  const since = workingSince(state);
  if (running(state)) {
    const time = since === undefined ? '' : ` ${elapsedText(now - since)}`;
    parts.push(seg(`  ● working${time}, C-c C-c to stop`, theme.running));
  }
  const waiting = waitingCount(state);
  if (waiting > 0) {
    parts.push(seg('  '), seg(` ${waiting} waiting for you `, theme.pending));
  }
  return parts;
}

/**
 * The open session's facts, most important first (the status line drops them from the
 * end when the row is short): context of the latest step, model, token totals, cost,
 * directory, then (on wide rows) the latest turn's usage. `compact` (rows under 100
 * columns) uses short labels and leaves the turn out.
 */
export function factParts(state: TuiState, compact = false): StyledLine[] {
  const open = state.open;
  if (!open) return [];
  const summary = state.list?.sessions.get(open.id);
  // Without the baselines the window alone would understate the session's totals.
  const pending = open.window.state.baselinePending;
  const usage = sessionUsage(open.window.state);
  const cost = pending ? undefined : sessionCost(open.window.state);
  const turn = pending ? undefined : latestTurnUsage(open.window.state);
  const facts: StyledLine[] = [];
  if (usage?.context !== undefined) {
    facts.push([seg(`${compact ? 'ctx' : 'context'} ${compactCount(usage.context)}`, theme.dim)]);
  }
  if (summary?.model) facts.push([seg(oneLine(summary.model), theme.dim)]);
  if (pending) facts.push([seg(compact ? 'indexing…' : 'totals: indexing…', theme.dim)]);
  else if (usage !== undefined && (usage.input > 0 || usage.output > 0)) {
    const tokens = compact
      ? `${compactCount(usage.input)}↑ ${compactCount(usage.output)}↓`
      : `${compactCount(usage.input)} in / ${compactCount(usage.output)} out`;
    facts.push([seg(tokens, theme.dim)]);
  }
  // `+`: the host priced what its baseline covers; newer or unpriced steps come on top.
  if (cost !== undefined)
    facts.push([seg(`${dollars(cost.usd)}${cost.partial ? '+' : ''}`, theme.dim)]);
  const cwd = summary?.cwd ?? open.facts.cwd;
  if (cwd !== '') facts.push([seg(oneLine(abbreviateHome(cwd, state.homeDir)), theme.path)]);
  if (!compact && turn !== undefined && (turn.input > 0 || turn.output > 0)) {
    const price = turn.usd === undefined ? '' : ` ${dollars(turn.usd)}`;
    const tokens = `${compactCount(turn.input)} in / ${compactCount(turn.output)} out`;
    facts.push([seg(`turn ${turn.turn}: ${tokens}${price}`, theme.dim)]);
  }
  return facts;
}

/**
 * The facts that fit in `room` cells, joined by ` · `: the most important ones that fit.
 */
export function fitFacts(facts: readonly StyledLine[], room: number): StyledLine {
  const join = (list: readonly StyledLine[]): StyledLine =>
    list.flatMap((fact, i) => [...(i > 0 ? [seg(' · ', theme.dim)] : []), ...fact]);
  for (let count = facts.length; count > 0; count--) {
    const line = join(facts.slice(0, count));
    if (lineWidth(line) <= room) return line;
  }
  return [];
}
