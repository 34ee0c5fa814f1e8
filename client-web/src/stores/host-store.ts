import type { Client } from '@connectrpc/connect';
import type { PathFacts } from '@dsh/card-models';
import type { DescribeHostResponse, SessionService } from '@dsh/gen/service';
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';

/**
 * The host the page talks to: its SessionService client (set once at boot) and the facts
 * of DescribeHost (home dir for `~`, capabilities that enable the input bar).
 */
export const useHostStore = defineStore('host', () => {
  const client = shallowRef<Client<typeof SessionService>>();
  const facts = shallowRef<DescribeHostResponse>();

  function connect(next: Client<typeof SessionService>): void {
    client.value = next;
    void describe();
  }

  async function describe(): Promise<void> {
    try {
      facts.value = await requireClient().describeHost({});
    } catch {
      // The session list shows the connection state; DescribeHost is retried on demand.
    }
  }

  function requireClient(): Client<typeof SessionService> {
    if (client.value === undefined) {
      throw new Error('the host client is not set: call useHostStore().connect(client) at boot');
    }
    return client.value;
  }

  const canPrompt = computed(() => facts.value?.capabilities.includes('prompt') ?? false);
  const canRespond = computed(() => facts.value?.capabilities.includes('respond') ?? false);
  const canEditQueue = computed(() => facts.value?.capabilities.includes('edit_queue') ?? false);
  const canCreate = computed(() => facts.value?.capabilities.includes('create') ?? true);
  const canUpdate = computed(() => facts.value?.capabilities.includes('update') ?? false);
  const canDelete = computed(() => facts.value?.capabilities.includes('delete') ?? false);

  /** The models a new session can use, the default first (DescribeHost `models`). */
  const models = computed<readonly string[]>(() => {
    const named = facts.value?.models ?? [];
    if (named.length > 0) return named;
    const fallback = facts.value?.defaultModel ?? '';
    return fallback === '' ? [] : [fallback];
  });

  /** Path facts for cards of a session in `cwd`. */
  function pathFacts(cwd: string): PathFacts {
    return { cwd, home: facts.value?.homeDir ?? '' };
  }

  return {
    client,
    facts,
    connect,
    describe,
    requireClient,
    canPrompt,
    canRespond,
    canEditQueue,
    canCreate,
    canUpdate,
    canDelete,
    models,
    pathFacts,
  };
});
