import { createSessionList, type BackoffOptions, type SessionList } from '@dsh/client-live';
import type { SessionClient } from '../data/session-client.js';
import { listRows, replaceList } from './list-rows.js';
import type { TuiState } from './tui-state.js';

/** Where the session list comes from, and the session to open first. */
export interface FollowSessionsOptions {
  readonly client: SessionClient;
  readonly backoff?: BackoffOptions;
  /** Session to open first; the newest session otherwise. */
  readonly sessionId?: string;
}

/**
 * Follows the host's session list (archived sessions too: the list hides them unless
 * asked) into `state`, keeping the list cursor on its session, and opens the first session
 * once it loads: `options.sessionId`, else the newest. The home folder for path facts and
 * whether the host can prompt arrive with the host's description.
 */
export function followSessions(
  state: TuiState,
  options: FollowSessionsOptions,
  on: { open(sessionId: string): void; onChange(): void; redraw(): void },
): SessionList {
  const list = createSessionList({
    client: options.client,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    includeArchived: true,
    onChange: (next) => {
      replaceList(state, next);
      if (!state.open && next.loaded) {
        const first = options.sessionId ?? listRows(state)[0]?.summary.id;
        if (first !== undefined) on.open(first);
      }
      on.onChange();
    },
  });
  options.client.describeHost({}).then(
    (host) => {
      state.homeDir = host.homeDir;
      state.canPrompt = host.capabilities.includes('prompt');
      on.redraw();
    },
    () => {},
  );
  return list;
}
