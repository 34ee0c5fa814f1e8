import { createSessionList, type SessionList, type SessionListState } from '@dsh/client-live';
import type { SessionSummary } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import { useHostStore } from './host-store.js';

/** The live session list (WatchSessions through card-models' `createSessionList`). */
export const useSessionListStore = defineStore('session-list', () => {
  const host = useHostStore();
  const state = shallowRef<SessionListState>();
  let list: SessionList | undefined;

  function start(): void {
    list?.close();
    list = createSessionList({
      client: host.requireClient(),
      onChange: (next) => {
        state.value = next;
        if (next.connection.kind === 'live' && host.facts === undefined) void host.describe();
      },
    });
    state.value = list.state;
  }

  function retry(): void {
    list?.retry();
  }

  function summary(id: string): SessionSummary | undefined {
    return state.value?.sessions.get(id);
  }

  /** Creates a session (in the host's default cwd, or under `parentId`) and returns its id. */
  async function create(parentId = ''): Promise<string> {
    const response = await host.requireClient().createSession({ parentId });
    const id = response.session?.id;
    if (id === undefined) throw new Error('the host created a session but returned no summary');
    return id;
  }

  return { state, start, retry, summary, create };
});
