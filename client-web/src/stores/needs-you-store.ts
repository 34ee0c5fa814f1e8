import { createConversation } from '@dsh/card-models';
import type { SessionSummary } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { computed, shallowRef, watch } from 'vue';
import { waitingCount } from '../format/waiting-count.js';
import { useConversationStore } from './conversation-store.js';
import { useHostStore } from './host-store.js';
import { useSessionListStore } from './session-list-store.js';

/** Background sessions checked at once, at most (each check is one small Page call). */
const maxChecks = 2;

/**
 * Which sessions wait for the person. The open session's count comes from its live
 * window; a running background session is checked with a one-message tail page each
 * time its summary changes (the approval or question it waits on comes after its last
 * message, so that page holds it), one check per session at a time. `waitingCount`
 * turns that into the count shown, and switches to the host's count once summaries
 * carry one.
 */
export const useNeedsYouStore = defineStore('needs-you', () => {
  const host = useHostStore();
  const list = useSessionListStore();
  const conversation = useConversationStore();
  const derived = shallowRef<ReadonlyMap<string, number>>(new Map());
  const seen = new Map<string, number>();
  const checking = new Set<string>();
  const queue: string[] = [];

  function setDerived(id: string, count: number): void {
    if ((derived.value.get(id) ?? 0) === count) return;
    const next = new Map(derived.value);
    if (count === 0) next.delete(id);
    else next.set(id, count);
    derived.value = next;
  }

  async function check(id: string): Promise<void> {
    checking.add(id);
    try {
      const page = await host.requireClient().page({ sessionId: id, maxMessages: 1 });
      const events = page.events.flatMap((entry) => (entry.event ? [entry.event] : []));
      const snapshot = createConversation().apply({ kind: 'replace', events });
      if (id !== conversation.sessionId) setDerived(id, snapshot.pending.length);
    } catch {
      // The mark stays as it was; the session's next change checks again.
    } finally {
      checking.delete(id);
      pump();
    }
  }

  /** Starts queued checks; a session whose check is in flight waits for it to end. */
  function pump(): void {
    for (let i = 0; i < queue.length && checking.size < maxChecks;) {
      const id = queue[i]!;
      if (checking.has(id)) i += 1;
      else {
        queue.splice(i, 1);
        void check(id);
      }
    }
  }

  function observe(sessions: ReadonlyMap<string, SessionSummary>): void {
    for (const [id, summary] of sessions) {
      if (id === conversation.sessionId) continue;
      if (!summary.running) {
        setDerived(id, 0);
        seen.delete(id);
        continue;
      }
      if (seen.get(id) === summary.eventCount) continue;
      seen.set(id, summary.eventCount);
      if (!queue.includes(id)) queue.push(id);
    }
    pump();
  }

  watch(
    () => list.state?.sessions,
    (sessions) => sessions && observe(sessions),
    { immediate: true },
  );
  // The open session: its window's pending items, live.
  watch(
    () => [conversation.sessionId, conversation.state?.snapshot.pending] as const,
    ([id, pending]) => {
      if (id === undefined) return;
      seen.delete(id);
      setDerived(id, pending?.length ?? 0);
    },
    { immediate: true },
  );

  /** Waiting counts by session id: only sessions waiting on something are in it. */
  const waiting = computed<ReadonlyMap<string, number>>(() => {
    const out = new Map<string, number>();
    for (const [id, summary] of list.state?.sessions ?? []) {
      const count = waitingCount(summary, derived.value.get(id));
      if (count > 0) out.set(id, count);
    }
    return out;
  });
  const total = computed(() => [...waiting.value.values()].reduce((a, b) => a + b, 0));

  return { waiting, total };
});
