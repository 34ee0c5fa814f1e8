import { composerCommand } from '@dsh/card-models';
import {
  createSessionWindow,
  describeError,
  type SessionWindow,
  type SessionWindowState,
} from '@dsh/client-live';
import { ApprovalDecision } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { computed, reactive, ref, shallowRef } from 'vue';
import { useHostStore } from './host-store.js';
import { useSessionListStore } from './session-list-store.js';

/** A failed send, stop or compaction, shown above the input bar until the next attempt. */
export interface InputError {
  readonly op: 'send' | 'stop' | 'respond' | 'compact';
  readonly message: string;
}

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
  const drafts = reactive(new Map<string, string>());
  const inputError = ref<InputError>();
  /** What the host said about the last `/compact` that did not start at once. */
  const inputNotice = ref<string>();
  const sending = ref(false);
  /** Increments on every send: the conversation scrolls to the bottom. */
  const sends = ref(0);
  let window: SessionWindow | undefined;

  const running = computed(() =>
    sessionId.value === undefined ? false : (list.summary(sessionId.value)?.running ?? false),
  );
  const draft = computed({
    get: () => (sessionId.value === undefined ? '' : (drafts.get(sessionId.value) ?? '')),
    set: (text: string) => {
      if (sessionId.value !== undefined) drafts.set(sessionId.value, text);
    },
  });

  function open(id: string | undefined): void {
    if (id === sessionId.value) return;
    window?.close();
    window = undefined;
    sessionId.value = id;
    selectedCallId.value = undefined;
    inputError.value = undefined;
    inputNotice.value = undefined;
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

  async function loadOlder(): Promise<void> {
    await window?.loadOlder();
  }

  function retry(): void {
    window?.retry();
  }

  /**
   * Sends the draft (queue or steer), or asks for a compaction when it is `/compact
   * [instruction]`; clears it at once and puts it back if the host refuses.
   */
  async function send(mode: 'queue' | 'steer'): Promise<void> {
    const id = sessionId.value;
    const command = composerCommand(draft.value);
    if (id === undefined || sending.value) return;
    if (command.kind === 'prompt' && command.text === '') return;
    const typedText = draft.value.trim();
    sending.value = true;
    inputError.value = undefined;
    inputNotice.value = undefined;
    drafts.set(id, '');
    sends.value += 1;
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
          content: [{ block: { case: 'text', value: { text: command.text } } }],
          mode: mode === 'steer' ? PromptMode.STEER : PromptMode.QUEUE,
        });
      }
    } catch (error) {
      const typed = drafts.get(id) ?? '';
      drafts.set(id, typed === '' ? typedText : `${typedText}\n${typed}`);
      const op = command.kind === 'compact' ? 'compact' : 'send';
      if (sessionId.value === id) inputError.value = { op, message: describeError(error) };
    } finally {
      sending.value = false;
    }
  }

  async function stop(): Promise<void> {
    const id = sessionId.value;
    if (id === undefined) return;
    inputError.value = undefined;
    try {
      await host.requireClient().cancel({ sessionId: id });
    } catch (error) {
      if (sessionId.value === id) inputError.value = { op: 'stop', message: describeError(error) };
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
    inputError,
    inputNotice,
    sending,
    sends,
    selectedCallId,
    open,
    loadOlder,
    retry,
    send,
    stop,
    approve,
    answer,
    selectCall,
  };
});
