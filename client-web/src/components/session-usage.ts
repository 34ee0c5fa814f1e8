import type { Client } from '@connectrpc/connect';
import { sessionUsage, type ConversationNode, type SessionUsage } from '@dsh/card-models';
import type { SessionWindowState } from '@dsh/client-live';
import type { Baseline, SessionService } from '@dsh/gen/service';
import {
  computed,
  inject,
  provide,
  shallowRef,
  watch,
  type ComputedRef,
  type InjectionKey,
} from 'vue';

/** The open session's usage facts, provided by the app shell to the turn footers. */
export const sessionUsageKey: InjectionKey<ComputedRef<SessionUsage | undefined>> =
  Symbol('session-usage');

/** How long after a turn ends the host is asked for a fresh end baseline. */
const refreshDelayMs = 400;

/** The newer of two baselines (the one covering more events). */
function newest(a: Baseline | undefined, b: Baseline | undefined): Baseline | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.beforeSeq > a.beforeSeq ? b : a;
}

/**
 * Computes the open window's usage facts (card-models' `sessionUsage`) over the newest
 * end baseline and provides them to the conversation. The tail page's end baseline
 * covers everything up to the open; when a turn ends with steps the host has not priced
 * for this client yet, it asks for the tail's end baseline again (a one-message `Page`),
 * so the cost is exact after every turn. Recomputed only when the window's nodes or the
 * baseline change, not on every streamed chunk.
 */
export function provideSessionUsage(
  state: () => SessionWindowState | undefined,
  client: () => Client<typeof SessionService> | undefined,
): ComputedRef<SessionUsage | undefined> {
  const fresh = shallowRef<{ sessionId: string; baseline: Baseline }>();
  let last: { nodes: readonly ConversationNode[]; baseline: Baseline | undefined } | undefined;
  let facts: SessionUsage | undefined;
  const usage = computed(() => {
    const window = state();
    // Without the baselines the window alone would understate the session: show nothing.
    if (window === undefined || !window.opened || window.baselinePending) return undefined;
    const { nodes } = window.snapshot;
    const mine = fresh.value?.sessionId === window.sessionId ? fresh.value.baseline : undefined;
    const baseline = newest(window.endBaseline ?? window.baseline, mine);
    if (last?.nodes !== nodes || last.baseline !== baseline) {
      last = { nodes, baseline };
      facts = sessionUsage(nodes, baseline);
    }
    return facts;
  });

  let timer: ReturnType<typeof setTimeout> | undefined;
  watch(
    () => {
      const window = state();
      const unpriced = (usage.value?.cost?.newerSteps ?? 0) > 0;
      const idle = window?.snapshot.openTurn === undefined;
      return unpriced && idle && window !== undefined ? window.sessionId : undefined;
    },
    (sessionId) => {
      clearTimeout(timer);
      const rpc = client();
      if (sessionId === undefined || rpc === undefined) return;
      timer = setTimeout(() => {
        rpc.page({ sessionId, maxMessages: 1 }).then(
          (page) => {
            if (page.endBaseline !== undefined && state()?.sessionId === sessionId) {
              fresh.value = { sessionId, baseline: page.endBaseline };
            }
          },
          // A failed refresh keeps the lower bound on show; the next turn asks again.
          () => {},
        );
      }, refreshDelayMs);
    },
  );
  provide(sessionUsageKey, usage);
  return usage;
}

/** The usage facts the app shell provides; undefined outside it (component tests). */
export function injectSessionUsage(): ComputedRef<SessionUsage | undefined> {
  return inject(
    sessionUsageKey,
    computed(() => undefined),
  );
}
