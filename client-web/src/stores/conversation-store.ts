import { composerCommand } from '@dsh/card-models';
import {
  createSessionWindow,
  describeError,
  openHitWindow,
  type SessionWindow,
  type SessionWindowState,
} from '@dsh/client-live';
import { waitingInputs, type WaitingInput } from '@dsh/card-models';
import type { ContentBlock } from '@dsh/gen/content';
import { ApprovalDecision } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef } from 'vue';
import { useHostStore } from './host-store.js';
import { loadDrafts, loadHistory, remember, saveDrafts } from './input-memory.js';
import { useSessionListStore } from './session-list-store.js';

/** A failed send, stop or compaction, shown above the input bar until the next attempt. */
export interface InputError {
  readonly op: 'send' | 'stop' | 'respond' | 'compact' | 'queue';
  readonly message: string;
}

/** What the last Stop cleared from the queue, offered back to the composer. */
export interface ClearedQueue {
  readonly sessionId: string;
  readonly texts: readonly string[];
}

/** The text of content blocks as a person typed it (non-text blocks left out). */
export function contentText(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.block.case === 'text' ? block.block.value.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

const textContent = (text: string) => [{ block: { case: 'text' as const, value: { text } } }];

/**
 * The open conversation: one live `createSessionWindow` for the selected session (memory
 * follows the loaded window; other sessions keep only their draft), the selected call
 * shared by the conversation, details panel and trajectory, and the input actions.
 */
export const useConversationStore = defineStore('conversation', () => {
  const host = useHostStore();
  const list = useSessionListStore();
  const sessionId = ref<string>();
  const state = shallowRef<SessionWindowState>();
  const selectedCallId = ref<string>();
  const drafts = reactive(loadDrafts());
  /** Session ids by the last edit of their draft, newest first (what storage keeps). */
  let draftOrder = [...drafts.keys()];
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** Sent messages, oldest first, for Up/Down in an empty composer. */
  const history = ref<string[]>(loadHistory());
  const inputError = ref<InputError>();
  /** What the host said about the last `/compact` that did not start at once. */
  const inputNotice = ref<string>();
  const sending = ref(false);
  /**
   * Sends go out one after another, in the order they were made: an Enter pressed while
   * the send before is on its way waits for it instead of being dropped.
   */
  let sendChain: Promise<void> = Promise.resolve();
  let inFlight = 0;
  /** Increments on every send: the conversation scrolls to the bottom. */
  const sends = ref(0);
  const cleared = ref<ClearedQueue>();
  let window: SessionWindow | undefined;
  /** The seq of the search hit whose history the window shows; undefined while live. */
  const historyAt = ref<number>();

  const running = computed(() =>
    sessionId.value === undefined ? false : (list.summary(sessionId.value)?.running ?? false),
  );
  /** The inputs waiting in the open session's queue, in order (baseline + the window). */
  const queue = computed<WaitingInput[]>(() => {
    const current = state.value;
    if (current === undefined) return [];
    const baseline = current.baseline;
    return waitingInputs(baseline?.queue, baseline?.beforeSeq ?? 0, current.snapshot.queueLog);
  });
  const draft = computed({
    get: () => (sessionId.value === undefined ? '' : (drafts.get(sessionId.value) ?? '')),
    set: (text: string) => {
      if (sessionId.value !== undefined) setDraft(sessionId.value, text);
    },
  });

  /** Sets a session's draft and stores the drafts soon (at once when the page hides). */
  function setDraft(id: string, text: string): void {
    drafts.set(id, text);
    draftOrder = [id, ...draftOrder.filter((other) => other !== id)];
    if (saveTimer === undefined) saveTimer = setTimeout(flushDrafts, 300);
  }

  function flushDrafts(): void {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
    saveDrafts(drafts, draftOrder);
  }
  globalThis.addEventListener?.('pagehide', flushDrafts);

  function open(id: string | undefined): void {
    if (id === sessionId.value && historyAt.value === undefined) return;
    historyAt.value = undefined;
    window?.close();
    window = undefined;
    sessionId.value = id;
    selectedCallId.value = undefined;
    inputError.value = undefined;
    inputNotice.value = undefined;
    cleared.value = undefined;
    state.value = undefined;
    if (id === undefined) return;
    const opened = createSessionWindow({
      client: host.requireClient(),
      sessionId: id,
      onChange: (next) => {
        if (window === opened) state.value = next;
      },
    });
    window = opened;
    state.value = opened.state;
  }

  /**
   * Shows a session's history at a search hit (client-live's history window: the page
   * that holds `seq`, however far back); `open` of the same session goes back to live.
   */
  async function openAt(id: string, seq: number): Promise<void> {
    open(undefined);
    sessionId.value = id;
    historyAt.value = seq;
    const { history, window: opened } = openHitWindow(
      { sessionId: id, seq },
      {
        client: host.requireClient(),
        onChange: () => {
          if (window === opened) state.value = opened.state;
        },
      },
    );
    window = opened;
    state.value = opened.state;
    await history.opened;
    if (window === opened) state.value = opened.state;
  }

  async function loadOlder(): Promise<void> {
    await window?.loadOlder();
  }

  function retry(): void {
    window?.retry();
  }

  /**
   * Sends the draft (queue or steer), or asks for a compaction when it is `/compact
   * [instruction]`; clears it at once, goes out after any send still on its way, and
   * puts it back if the host refuses.
   */
  async function send(mode: 'queue' | 'steer'): Promise<void> {
    const id = sessionId.value;
    const command = composerCommand(draft.value);
    if (id === undefined) return;
    if (command.kind === 'prompt' && command.text === '') return;
    const typedText = draft.value.trim();
    inFlight += 1;
    sending.value = true;
    inputError.value = undefined;
    inputNotice.value = undefined;
    setDraft(id, '');
    sends.value += 1;
    const delivered = sendChain.then(() => deliver(id, command, mode, typedText));
    sendChain = delivered;
    try {
      await delivered;
    } finally {
      inFlight -= 1;
      sending.value = inFlight > 0;
    }
  }

  /** One send to the host; a refusal puts its text back in front of the draft. */
  async function deliver(
    id: string,
    command: ReturnType<typeof composerCommand>,
    mode: 'queue' | 'steer',
    typedText: string,
  ): Promise<void> {
    try {
      if (command.kind === 'compact') {
        const { started } = await host
          .requireClient()
          .compact({ sessionId: id, instruction: command.instruction });
        if (!started && sessionId.value === id) {
          inputNotice.value = 'The compaction runs before the running turn’s next model step.';
        }
      } else {
        await host.requireClient().prompt({
          sessionId: id,
          content: textContent(command.text),
          mode: mode === 'steer' ? PromptMode.STEER : PromptMode.QUEUE,
        });
        history.value = remember(history.value, command.text);
      }
    } catch (error) {
      const typed = drafts.get(id) ?? '';
      setDraft(id, typed === '' ? typedText : `${typedText}\n${typed}`);
      const op = command.kind === 'compact' ? 'compact' : 'send';
      if (sessionId.value === id) inputError.value = { op, message: describeError(error) };
    }
  }

  async function stop(): Promise<void> {
    const id = sessionId.value;
    if (id === undefined) return;
    inputError.value = undefined;
    try {
      const response = await host.requireClient().cancel({ sessionId: id });
      const texts = response.clearedInputs.map((input) => contentText(input.content));
      if (sessionId.value === id) {
        cleared.value = texts.length > 0 ? { sessionId: id, texts } : undefined;
      }
    } catch (error) {
      if (sessionId.value === id) inputError.value = { op: 'stop', message: describeError(error) };
    }
  }

  /** Puts what the last Stop cleared back into the composer, before any text typed since. */
  function restoreCleared(): void {
    const last = cleared.value;
    if (last === undefined) return;
    const typed = drafts.get(last.sessionId) ?? '';
    const restored = last.texts.join('\n\n');
    setDraft(last.sessionId, typed === '' ? restored : `${restored}\n\n${typed}`);
    cleared.value = undefined;
  }

  function dismissCleared(): void {
    cleared.value = undefined;
  }

  /** Replaces a waiting input's text, or removes it (empty text). */
  async function editQueued(queueId: string, text: string): Promise<boolean> {
    const id = sessionId.value;
    if (id === undefined) return false;
    inputError.value = undefined;
    try {
      const trimmed = text.trim();
      await host
        .requireClient()
        .editQueue({ sessionId: id, queueId, content: trimmed === '' ? [] : textContent(trimmed) });
      return true;
    } catch (error) {
      if (sessionId.value === id) inputError.value = { op: 'queue', message: describeError(error) };
      return false;
    }
  }

  async function approve(
    approvalId: string,
    decision: 'allow' | 'allow-session' | 'deny',
  ): Promise<void> {
    const value = {
      approvalId,
      decision:
        decision === 'allow'
          ? ApprovalDecision.ALLOW
          : decision === 'allow-session'
            ? ApprovalDecision.ALLOW_SESSION
            : ApprovalDecision.DENY,
    };
    await respond({ case: 'approval', value });
  }

  async function answer(questionId: string, answers: string[][] | 'cancelled'): Promise<void> {
    const value =
      answers === 'cancelled'
        ? { questionId, answers: [], cancelled: true }
        : { questionId, answers: answers.map((values) => ({ values })), cancelled: false };
    await respond({ case: 'question', value });
  }

  async function respond(
    response:
      | { case: 'approval'; value: { approvalId: string; decision: ApprovalDecision } }
      | {
          case: 'question';
          value: { questionId: string; answers: { values: string[] }[]; cancelled: boolean };
        },
  ): Promise<void> {
    const id = sessionId.value;
    if (id === undefined) return;
    inputError.value = undefined;
    try {
      await host.requireClient().respond({ sessionId: id, response });
    } catch (error) {
      if (sessionId.value === id)
        inputError.value = { op: 'respond', message: describeError(error) };
    }
  }

  function selectCall(callId: string | undefined): void {
    selectedCallId.value = callId;
  }

  return {
    sessionId,
    state,
    running,
    draft,
    history,
    inputError,
    inputNotice,
    sending,
    sends,
    queue,
    cleared,
    selectedCallId,
    historyAt,
    open,
    openAt,
    loadOlder,
    retry,
    send,
    stop,
    restoreCleared,
    dismissCleared,
    editQueued,
    approve,
    answer,
    selectCall,
  };
});
