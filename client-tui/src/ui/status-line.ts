import type { PendingItem } from '@dsh/card-models';
import type { ConnectionState } from '@dsh/client-live';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { lineWidth, truncateLine, wrapLine } from '../text/text-width.js';
import { currentPending } from './key-actions.js';
import { factParts, fitFacts, turnParts } from './status-facts.js';
import type { TuiState } from './tui-state.js';

/**
 * The connection as a status text: silent while live, explicit while connecting or down;
 * the wait before the next attempt counts down from when the state arrived (`since`).
 */
export function connectionText(
  connection: ConnectionState | undefined,
  now: number,
  since: ReadonlyMap<ConnectionState, number>,
): StyledLine | undefined {
  if (connection === undefined || connection.kind === 'live') return undefined;
  switch (connection.kind) {
    case 'connecting':
      return [seg('connecting…', theme.running)];
    case 'reconnecting': {
      const waited = now - (since.get(connection) ?? now);
      const seconds = Math.max(0, Math.ceil((connection.retryInMs - waited) / 1000));
      return [
        seg(
          `disconnected: ${oneLine(connection.error)} — reconnecting in ${seconds}s (attempt ${connection.attempt})`,
          theme.error,
        ),
      ];
    }
    case 'offline':
      return [seg(`offline: ${oneLine(connection.error)} — press r to retry`, theme.error)];
    default: {
      const unknown: never = connection;
      throw new Error(`unknown connection ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Notes when each `reconnecting` state of the open window and the session list arrived,
 * keeping the time of a state already noted and forgetting states that are gone. Called
 * when the streams change, so drawing only reads the times.
 */
export function noteReconnects(state: TuiState, now: number): void {
  const next = new Map<ConnectionState, number>();
  for (const connection of [state.open?.window.state.connection, state.list?.connection]) {
    if (connection?.kind === 'reconnecting') {
      next.set(connection, state.reconnectSince.get(connection) ?? now);
    }
  }
  if (next.size > 0 || state.reconnectSince.size > 0) state.reconnectSince = next;
}

/** True while both the session list and the open session's stream are live. */
export function isLive(state: TuiState): boolean {
  const window = state.open?.window.state.connection;
  return state.list?.connection.kind === 'live' && (window === undefined || window.kind === 'live');
}

/**
 * Clears a failure message when the streams come back (`wasLive` false, live now): it no
 * longer says how things are. Returns whether the streams are live.
 */
export function forgetFailureOnReconnect(state: TuiState, wasLive: boolean): boolean {
  const live = isLive(state);
  if (live && !wasLive && state.flash?.error) state.flash = undefined;
  return live;
}

/**
 * The status line: a pending confirmation, else the live state (connection trouble first,
 * then following / scrolled, how long the turn has been working and how to stop it, what
 * waits for the person, window errors), the latest message while it lasts, and on the
 * right the session's facts that fit (context, model, tokens, cost, directory, last turn).
 * Nothing here outlives the state it describes: messages expire by `until`.
 */
export function statusLine(state: TuiState, now: number, width: number): StyledLine {
  const confirm =
    state.confirm !== undefined && state.confirm.until >= now ? state.confirm : undefined;
  if (confirm !== undefined) {
    switch (confirm.kind) {
      case 'stop':
        return [seg('Press Ctrl+C again to stop the running turn', theme.pending)];
      case 'quit':
        return [seg('Press Ctrl+C again to quit', theme.pending)];
      case 'quit-running':
        return [
          seg('A turn is running (it goes on without this client). Quit? ', theme.pending),
          seg('[y]', theme.key),
          seg(' quit  '),
          seg('[any other key]', theme.key),
          seg(' stay'),
        ];
      default: {
        const unknown: never = confirm.kind;
        throw new Error(`unknown confirmation ${String(unknown)}`);
      }
    }
  }
  const open = state.open;
  const windowState = open?.window.state;
  // The tail is on screen and the follow waits for the host to index the session.
  const indexing =
    windowState?.connection.kind === 'connecting' &&
    windowState.opened &&
    windowState.baselinePending;
  const trouble = indexing
    ? [
        seg(
          'the host is indexing this session: its tail is shown, live events follow',
          theme.running,
        ),
      ]
    : (connectionText(windowState?.connection, now, state.reconnectSince) ??
      connectionText(state.list?.connection, now, state.reconnectSince));
  const live: StyledLine = trouble ?? [
    ...(open && windowState
      ? [seg(open.view.following ? 'following' : 'scrolled (End: follow)', theme.dim)]
      : [seg('Tab: sessions  Enter: open', theme.dim)]),
    ...turnParts(state, now),
    ...(windowState?.error !== undefined
      ? [seg(`  ${oneLine(windowState.error)}`, theme.error)]
      : []),
  ];
  const message = state.flash !== undefined && state.flash.until >= now ? state.flash : undefined;
  let left: StyledLine;
  if (message === undefined) left = truncateLine(live, width);
  else {
    // The message keeps its room (up to two thirds of the row); the live state gets the rest.
    const text = truncateLine(
      [seg(oneLine(message.text), message.error ? theme.error : theme.ok)],
      Math.max(10, Math.floor((width * 2) / 3)),
    );
    const room = width - lineWidth(text) - 3;
    left = room < 8 ? text : [...truncateLine(live, room), seg(' · ', theme.dim), ...text];
  }
  // The session's facts take what is left, right-aligned, never pushing the state out.
  const facts =
    trouble === undefined
      ? fitFacts(factParts(state, width < 100), width - lineWidth(left) - 2)
      : [];
  if (facts.length === 0) return left;
  const gap = width - lineWidth(left) - lineWidth(facts);
  return [...left, seg(' '.repeat(Math.max(2, gap))), ...facts];
}

function keysLine(keys: readonly (readonly [string, string])[]): StyledLine {
  return keys.flatMap(([k, what], i) => [
    ...(i > 0 ? [seg('  ')] : []),
    seg(`[${k}]`, theme.key),
    seg(` ${what}`),
  ]);
}

function promptKeys(item: PendingItem, state: TuiState): StyledLine {
  if (item.kind === 'approval') {
    return keysLine([
      ['y', 'once'],
      ['a', 'for session'],
      ['n', 'deny'],
      ['Esc', 'later'],
    ]);
  }
  const index = state.answers?.questionId === item.questionId ? state.answers.index : 0;
  const question = item.questions[index];
  const count = question?.options.length ?? 0;
  return keysLine([
    ...(count > 0 ? [[count > 1 ? `1-${Math.min(9, count)}` : '1', 'choose'] as const] : []),
    ...(question?.multiSelect ? [['Enter', 'confirm'] as const] : []),
    ['t', 'type'],
    ['x', 'decline'],
    ['Esc', 'later'],
  ]);
}

/**
 * The prompt bar of the oldest pending approval or question: what is asked and, when it
 * has focus, the keys that answer it; unfocused, how to get there.
 */
export function promptLines(state: TuiState, width: number): StyledLine[] {
  const item = currentPending(state);
  if (item === undefined) return [];
  const focused = state.focus === 'prompt';
  let ask: StyledLine;
  let detail = '';
  if (item.kind === 'approval') {
    ask = [seg(`Allow ${oneLine(item.toolName)}?`, theme.pending)];
    detail = oneLine(item.reason);
  } else {
    const index = state.answers?.questionId === item.questionId ? state.answers.index : 0;
    const question = item.questions[index];
    ask = [seg(`Question ${index + 1}/${item.questions.length}`, theme.pending)];
    const header = question?.header ? `${oneLine(question.header)}: ` : '';
    detail = `${header}${oneLine(question?.question ?? '')}`;
  }
  const hint = !focused
    ? state.inputMode === 'answer'
      ? [seg(' typing an answer: Enter sends it, Esc goes back', theme.dim)]
      : [seg(' Tab to answer', theme.dim)]
    : [seg(' '), ...promptKeys(item, state)];
  const first = wrapLine([...ask, ...hint], width, 2, 2);
  return detail === ''
    ? first
    : [...first, ...wrapLine([seg(`  ${detail}`, theme.dim)], width, 4, 2)];
}
