import { createSessionList, type SessionList, type SessionListState } from '@dsh/client-live';
import type { SessionSummary } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import { useHostStore } from './host-store.js';

/** What a new session starts with; empty fields take the host's defaults. */
export interface NewSession {
  readonly cwd?: string;
  readonly title?: string;
  readonly model?: string;
  /** The parent for a child session (a branch); empty for a root session. */
  readonly parentId?: string;
}

/**
 * The live session list (WatchSessions through client-live's `createSessionList`, archived
 * sessions included so the list shows or hides them at once) and the session actions:
 * create, rename, archive, delete.
 */
export const useSessionListStore = defineStore('session-list', () => {
  const host = useHostStore();
  const state = shallowRef<SessionListState>();
  let list: SessionList | undefined;

  function start(): void {
    list?.close();
    list = createSessionList({
      client: host.requireClient(),
      includeArchived: true,
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

  /** Creates a session and returns its id. */
  async function create(fields: NewSession = {}): Promise<string> {
    const response = await host.requireClient().createSession({
      cwd: fields.cwd?.trim() ?? '',
      title: fields.title?.trim() ?? '',
      model: fields.model ?? '',
      parentId: fields.parentId ?? '',
    });
    const id = response.session?.id;
    if (id === undefined) throw new Error('the host created a session but returned no summary');
    return id;
  }

  /** Renames a session; an empty title goes back to its first message. */
  async function rename(id: string, title: string): Promise<void> {
    await host.requireClient().updateSession({ sessionId: id, title: title.trim() });
  }

  async function setArchived(id: string, archived: boolean): Promise<void> {
    await host.requireClient().updateSession({ sessionId: id, archived });
  }

  /** Moves a session to the host's trash folder and returns where its files went. */
  async function remove(id: string): Promise<string> {
    return (await host.requireClient().deleteSession({ sessionId: id })).trashPath;
  }

  return { state, start, retry, summary, create, rename, setArchived, remove };
});
