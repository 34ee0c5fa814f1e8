import type { ConnectionState } from '@dsh/client-live';
import type { Widgets } from 'reblessed';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import { toSgr } from '../text/to-sgr.js';
import { answerablePending, running as sessionRunning } from './key-actions.js';
import { helpLine, keyHelp } from './key-help.js';
import { sessionListLines } from './session-list-lines.js';
import type { TuiState } from './tui-state.js';

/** The widgets the client draws into. */
export interface TuiWidgets {
  readonly header: Widgets.BoxElement;
  readonly list: Widgets.BoxElement;
  readonly separator: Widgets.BoxElement;
  readonly conversation: Widgets.BoxElement;
  readonly status: Widgets.BoxElement;
  readonly input: Widgets.BoxElement;
  readonly help: Widgets.BoxElement;
  readonly overlay: Widgets.BoxElement;
}

/** Layout of the panes for a terminal size. */
export function paneLayout(cols: number, rows: number) {
  const listWidth = cols >= 60 ? Math.min(28, Math.floor(cols * 0.28)) : 0;
  const convLeft = listWidth > 0 ? listWidth + 1 : 0;
  return {
    listWidth,
    convLeft,
    convWidth: Math.max(10, cols - convLeft),
    bodyHeight: Math.max(1, rows - 4),
  };
}

function place(box: Widgets.BoxElement, left: number, top: number, width: number, height: number) {
  box.left = left;
  box.top = top;
  box.width = Math.max(0, width);
  box.height = Math.max(0, height);
}

const content = (lines: readonly StyledLine[]) => lines.map(toSgr).join('\n');

/** The connection line: silent while live, explicit while connecting or disconnected. */
export function connectionText(connection: ConnectionState | undefined): StyledLine | undefined {
  if (connection === undefined || connection.kind === 'live') return undefined;
  switch (connection.kind) {
    case 'connecting':
      return [seg('connecting…', theme.running)];
    case 'reconnecting': {
      const seconds = Math.ceil(connection.retryInMs / 1000);
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

/** Draws the whole client from `state` into the widgets (content only; one render follows). */
export function drawTui(
  screen: Widgets.Screen,
  widgets: TuiWidgets,
  state: TuiState,
  hostLabel: string,
): void {
  const cols = screen.width as number;
  const rows = screen.height as number;
  const layout = paneLayout(cols, rows);
  const open = state.open;
  const windowState = open?.window.state;
  const summary = open ? state.list?.sessions.get(open.id) : undefined;

  place(widgets.header, 0, 0, cols, 1);
  const title = summary
    ? oneLine(summary.title !== '' ? summary.title : summary.id)
    : 'no session open';
  const running = summary?.running ? [seg(' ● running', theme.running)] : [];
  widgets.header.setContent(
    toSgr(
      truncateLine(
        [
          seg('dsh ', theme.bold),
          seg(`${hostLabel} `, theme.dim),
          seg(title, state.focus === 'conversation' ? { bold: true, underline: true } : theme.bold),
          ...running,
        ],
        cols,
      ),
    ),
  );

  place(widgets.list, 0, 1, layout.listWidth, layout.bodyHeight);
  place(widgets.separator, layout.listWidth, 1, layout.listWidth > 0 ? 1 : 0, layout.bodyHeight);
  widgets.separator.setContent(
    toSgr([seg('│', state.focus === 'sessions' ? theme.bold : theme.dim)]).repeat(1) +
      ('\n' + toSgr([seg('│', theme.dim)])).repeat(Math.max(0, layout.bodyHeight - 1)),
  );
  const listRows = state.list?.rows ?? [];
  const listTop = Math.max(0, state.listCursor - layout.bodyHeight + 1);
  const listLines = sessionListLines(listRows, {
    width: layout.listWidth,
    cursor: state.listCursor,
    openId: open?.id,
    focused: state.focus === 'sessions',
  }).slice(listTop, listTop + layout.bodyHeight);
  if (!state.list?.loaded) listLines.push([seg('loading…', theme.dim)]);
  else if (listRows.length === 0) listLines.push([seg('no sessions (n: new)', theme.dim)]);
  widgets.list.setContent(content(listLines));

  place(widgets.conversation, layout.convLeft, 1, layout.convWidth, layout.bodyHeight);
  let convLines: StyledLine[] = [];
  if (open && windowState) {
    const width = layout.convWidth - 2;
    const isRunning = sessionRunning(state);
    const from = open.renderedFrom;
    if (from?.state !== windowState || from.width !== width || from.running !== isRunning) {
      open.view.setItems(open.renderer.render(windowState.snapshot, width, isRunning));
      open.renderedFrom = { state: windowState, width, running: isRunning };
    }
    open.view.setHeight(layout.bodyHeight);
    const frame = open.view.frame();
    convLines = frame.lines.map((line, i) => {
      const selected = frame.owners[i] === open.view.selected && !open.view.following;
      const gutter = selected
        ? seg('▌ ', state.focus === 'conversation' ? theme.running : theme.dim)
        : seg('  ');
      return [gutter, ...line];
    });
    if (!windowState.opened) convLines = [[seg('  loading…', theme.dim)]];
    else if (frame.atTop && windowState.hasMore && convLines.length > 0) {
      convLines[0] = [
        seg(windowState.loadingOlder ? '  loading older…' : '  ↑ older messages (PgUp)', theme.dim),
      ];
    }
  }
  widgets.conversation.setContent(content(convLines));

  place(widgets.status, 0, rows - 3, cols, 1);
  const statusLine: StyledLine =
    state.flash !== undefined
      ? [seg(oneLine(state.flash.text), state.flash.error ? theme.error : theme.ok)]
      : (connectionText(windowState?.connection) ??
        connectionText(state.list?.connection) ??
        statusFacts(state));
  widgets.status.setContent(toSgr(truncateLine(statusLine, cols)));

  place(widgets.input, 0, rows - 2, cols, 1);
  const prompt = state.inputMode === 'answer' ? 'answer› ' : '› ';
  const view = state.input.view(cols - prompt.length);
  const cursorAt = [...view.text];
  const before = cursorAt.slice(0, view.column).join('');
  const at = cursorAt[view.column] ?? ' ';
  const after = cursorAt.slice(view.column + 1).join('');
  const focused = state.focus === 'input';
  const inputLine: StyledLine =
    focused || state.input.text !== ''
      ? [
          seg(prompt, theme.user),
          seg(before),
          seg(at, focused ? { inverse: true } : undefined),
          seg(after),
        ]
      : [seg(prompt, theme.dim), seg('i to compose', theme.dim)];
  widgets.input.setContent(toSgr(inputLine));

  place(widgets.help, 0, rows - 1, cols, 1);
  widgets.help.setContent(toSgr(truncateLine([seg(helpLine(state.focus), theme.dim)], cols)));

  drawOverlay(widgets.overlay, state, cols, rows);
}

function statusFacts(state: TuiState): StyledLine {
  const open = state.open;
  const windowState = open?.window.state;
  if (!open || !windowState) return [seg('Tab: sessions  Enter: open', theme.dim)];
  const pending = answerablePending(state)[0];
  if (pending?.kind === 'approval')
    return [
      seg(
        `approval needed for ${oneLine(pending.toolName)}: y allow, a always, n deny`,
        theme.pending,
      ),
    ];
  if (pending?.kind === 'question') {
    const progress = state.answers?.questionId === pending.questionId ? state.answers.index + 1 : 1;
    return [
      seg(
        `question ${progress}/${pending.questions.length}: 1-9 choose, t type, x decline`,
        theme.pending,
      ),
    ];
  }
  const facts: StyledLine = [
    seg(open.view.following ? 'following' : 'scrolled (End: follow)', theme.dim),
    ...(windowState.error !== undefined
      ? [seg(`  ${oneLine(windowState.error)}`, theme.error)]
      : []),
  ];
  return facts;
}

function drawOverlay(
  overlay: Widgets.BoxElement,
  state: TuiState,
  cols: number,
  rows: number,
): void {
  if (!state.help && !state.details) {
    overlay.hide();
    return;
  }
  place(overlay, 0, 0, cols, rows - 1);
  overlay.show();
  overlay.setFront();
  let lines: StyledLine[];
  if (state.help) {
    lines = [[seg('Keys', theme.bold), seg('  (any key closes)', theme.dim)], []];
    for (const [pane, keys, what] of keyHelp) {
      lines.push(
        truncateLine(
          [seg(pane.padEnd(13), theme.dim), seg(keys.padEnd(20), theme.key), seg(what)],
          cols,
        ),
      );
    }
    lines.push(
      [],
      [
        seg(
          'Mouse is off by default so the terminal can select text; dsh tui --mouse turns it on.',
          theme.dim,
        ),
      ],
    );
  } else {
    const open = state.open;
    const item = open?.view.items.find((candidate) => candidate.key === state.details?.key);
    const body = item
      ? item.details(cols - 2)
      : [[seg('this item is no longer in the window', theme.dim)]];
    const height = rows - 2;
    const maxTop = Math.max(0, body.length - height);
    const details = state.details as { key: string; top: number };
    details.top = Math.min(Math.max(0, details.top), maxTop);
    lines = [
      truncateLine(
        [
          seg('Details', theme.bold),
          seg(
            `  j/k scroll, Esc/q close — ${details.top + 1}-${Math.min(body.length, details.top + height)} of ${body.length}`,
            theme.dim,
          ),
        ],
        cols,
      ),
      ...body.slice(details.top, details.top + height).map((line) => [seg(' '), ...line]),
    ];
  }
  overlay.setContent(content(lines));
}
