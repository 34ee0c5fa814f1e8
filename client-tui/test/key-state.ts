import { createCardCache, type PendingItem } from '@dsh/card-models';
import type { ConnectionState, SessionList, SessionWindow } from '@dsh/client-live';
import { createComposer } from '../src/ui/composer.js';
import { createConversationView } from '../src/ui/conversation-view.js';
import { handleKey, type KeyContext } from '../src/ui/handle-key.js';
import type { Key } from '../src/ui/key-actions.js';
import { promptArmMs, syncPrompt } from '../src/ui/prompt-keys.js';
import type { SessionActions } from '../src/ui/session-actions.js';
import type { Focus, TuiState } from '../src/ui/tui-state.js';

/** A pending bash approval. */
export const approval: PendingItem = {
  kind: 'approval',
  seq: 5,
  approvalId: 'ap1',
  callId: 'c1',
  toolName: 'bash',
  reason: 'runs a shell command',
};

/** A client state over a fake window and list, and every action it asked for. */
export function setup(
  options: {
    pending?: PendingItem[];
    running?: boolean;
    focus?: Focus;
    connection?: ConnectionState;
    /** What a send fails with (it succeeds when undefined). */
    sendError?: string;
  } = {},
) {
  const calls: string[] = [];
  let now = 10_000;
  const record = (text: string) => {
    calls.push(text);
    return Promise.resolve(undefined);
  };
  const actions: SessionActions = {
    send: (_id, text, mode) =>
      record(`send ${mode} ${text}`).then(() =>
        options.sendError === undefined
          ? { started: !(options.running ?? false) }
          : { error: options.sendError, started: false },
      ),
    stop: () => record('stop'),
    compact: (_id, instruction) =>
      record(`compact ${instruction}`).then(() =>
        options.sendError === undefined
          ? { started: !(options.running ?? false) }
          : { error: options.sendError },
      ),
    approve: (_id, approvalId, decision) => record(`approve ${approvalId} ${decision}`),
    answer: (_id, questionId, answers) => record(`answer ${questionId} ${JSON.stringify(answers)}`),
    createSession: () => Promise.resolve({ id: 'new' }),
    update: (id, change) => record(`update ${id} ${JSON.stringify(change)}`),
    remove: (id) => record(`remove ${id}`).then(() => ({ trashPath: `/trash/${id}` })),
  };
  const window = {
    state: {
      snapshot: { pending: options.pending ?? [] },
      connection: options.connection ?? { kind: 'live' },
    },
  } as unknown as SessionWindow;
  const listState = {
    sessions: new Map([
      ['s1', { id: 's1', title: 'Test', cwd: '/p', error: '', running: options.running ?? false }],
    ]),
    rows: [],
    loaded: true,
    connection: { kind: 'live' },
  } as unknown as SessionList['state'];
  const state: TuiState = {
    focus: options.focus ?? 'input',
    list: listState,
    listCursor: 0,
    open: {
      id: 's1',
      window,
      renderer: { render: () => [], complete: true },
      facts: { cwd: '/p', home: '/h' },
      view: createConversationView(10),
      renderedFrom: undefined,
      olderPages: 0,
      reading: undefined,
    },
    composer: createComposer(),
    inputMode: 'prompt',
    answers: undefined,
    details: undefined,
    help: false,
    flash: undefined,
    confirm: undefined,
    prompt: undefined,
    deferred: new Set(),
    typedAt: 0,
    chord: undefined,
    homeDir: '/h',
    listShown: true,
    runningSince: undefined,
    queue: [],
    history: undefined,
    picker: undefined,
    searchLine: undefined,
    pendingHit: undefined,
    canPrompt: true,
    allSearch: undefined,
    showArchived: false,
    manage: undefined,
    reconnectSince: new Map(),
  };
  const context: KeyContext = {
    actions,
    open: () => {},
    list: { state: listState, retry: () => {}, close: () => {} },
    flush: () => {},
    editDraft: () => void calls.push('editor'),
    now: () => now,
    cards: createCardCache(),
    clipboard: (text) => void calls.push(`clipboard ${text}`),
  };
  const keyOf = (name: string): [string | undefined, Key] => {
    if (name.startsWith('C-')) {
      return [undefined, { name: name.slice(2), full: name, ctrl: true, sequence: '' } as Key];
    }
    if (name.length === 1) return [name, { name, full: name, sequence: name } as Key];
    const sequence = name === 'return' ? '\r' : name === 'linefeed' ? '\n' : '';
    return [sequence || undefined, { name, full: name, sequence } as Key];
  };
  const press = (...names: string[]) =>
    names.map((name) => {
      const [ch, key] = keyOf(name);
      return handleKey(state, ch, key, context);
    });
  const type = (text: string) => press(...text.split(''));
  return {
    state,
    calls,
    press,
    type,
    advance: (ms: number) => void (now += ms),
    now: () => now,
  };
}

/** A setup whose approval prompt has focus and is armed. */
export function atPrompt(running = true) {
  const t = setup({ pending: [approval], running });
  syncPrompt(t.state, t.now());
  t.advance(promptArmMs + 1);
  return t;
}
