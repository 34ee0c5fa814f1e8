import { defineStore } from 'pinia';
import { computed } from 'vue';
import { waitingCount } from '../format/waiting-count.js';
import { useConversationStore } from './conversation-store.js';
import { useSessionListStore } from './session-list-store.js';

/**
 * Which sessions wait for the person: the open session's count comes from its live
 * window once that has loaded its tail page (before, and while it shows a history
 * window, the window knows nothing of what waits now), every other session's from the
 * host's summary (`pending`); `waitingCount` decides between them.
 */
export const useNeedsYouStore = defineStore('needs-you', () => {
  const list = useSessionListStore();
  const conversation = useConversationStore();

  /** Waiting counts by session id: only sessions waiting on something are in it. */
  const waiting = computed<ReadonlyMap<string, number>>(() => {
    const out = new Map<string, number>();
    for (const [id, summary] of list.state?.sessions ?? []) {
      const live = conversation.state?.opened === true && conversation.historyAt === undefined;
      const open =
        id === conversation.sessionId && live
          ? conversation.state?.snapshot.pending.length
          : undefined;
      const count = waitingCount(summary, open);
      if (count > 0) out.set(id, count);
    }
    return out;
  });
  const total = computed(() => [...waiting.value.values()].reduce((a, b) => a + b, 0));

  return { waiting, total };
});
