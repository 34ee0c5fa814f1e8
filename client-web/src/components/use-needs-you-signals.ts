import type { SessionSummary } from '@dsh/gen/service';
import { watch, type Ref } from 'vue';

/** What the signals need to know about the page. */
export interface NeedsYouSources {
  /** Waiting counts by session id (only sessions that wait). */
  readonly waiting: Readonly<Ref<ReadonlyMap<string, number>>>;
  readonly sessions: () => ReadonlyMap<string, SessionSummary> | undefined;
  /** The open session's id and title, for the tab title. */
  readonly openId: () => string | undefined;
  readonly openTitle: () => string;
  /** One past the last seq the open session's live window shows (0 before it loads). */
  readonly openEnd: () => number;
  /** Opens a session (a notification's click). */
  readonly open: (id: string) => void;
}

function titleOf(summary: SessionSummary | undefined, id: string): string {
  return summary?.title || id;
}

/** Shows a desktop notification when the person allowed them; clicking opens the session. */
function notify(title: string, body: string, id: string, open: (id: string) => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const note = new Notification(title, { body, tag: `dsh-${id}` });
  note.onclick = () => {
    window.focus();
    open(id);
    note.close();
  };
}

/**
 * The "needs you" signals outside the session list: the tab title starts with the number
 * of approvals and questions waiting ("(2) Fix the parser · dsh"), and, with the person's
 * permission, a desktop notification when a session waits on something new (unless it
 * is the open session in a visible tab) or a turn ends while the tab is hidden.
 */
export function useNeedsYouSignals(sources: NeedsYouSources): void {
  watch(
    () => {
      const total = [...sources.waiting.value.values()].reduce((a, b) => a + b, 0);
      const title = sources.openTitle();
      return `${total > 0 ? `(${total}) ` : ''}${title ? `${title} · ` : ''}dsh`;
    },
    (title) => (document.title = title),
    { immediate: true },
  );
  // The event count at which the person last saw (or was told about) each session: a
  // waiting session notifies once it has moved past it, so a new approval right after an
  // answered one notifies even when the count never reads zero in between. What the open
  // session's window showed counts as seen, so a summary that arrives after the person
  // left it does not announce what they saw. A repeat replaces the session's earlier
  // notification (same tag).
  const seenAt = new Map<string, number>();
  watch([sources.waiting, sources.sessions, sources.openEnd], ([now]) => {
    const sessions = sources.sessions();
    const openId = sources.openId();
    const watched = (id: string): boolean =>
      id === openId && document.visibilityState === 'visible';
    if (openId !== undefined && watched(openId)) {
      const shown = Math.max(sessions?.get(openId)?.eventCount ?? 0, sources.openEnd());
      seenAt.set(openId, Math.max(seenAt.get(openId) ?? 0, shown));
    }
    for (const [id, count] of now) {
      const events = sessions?.get(id)?.eventCount ?? 0;
      if (watched(id) || events <= (seenAt.get(id) ?? -1)) continue;
      seenAt.set(id, events);
      const what =
        count === 1 ? 'An approval or a question waits' : `${count} approvals or questions wait`;
      notify(`${titleOf(sessions?.get(id), id)} needs you`, `${what} for you.`, id, sources.open);
    }
  });
  let running = new Map<string, boolean>();
  watch(
    sources.sessions,
    (sessions) => {
      const next = new Map<string, boolean>();
      for (const [id, summary] of sessions ?? []) {
        next.set(id, summary.running);
        const ended = running.get(id) === true && !summary.running;
        if (ended && document.visibilityState === 'hidden') {
          notify(
            `${titleOf(summary, id)}: the turn ended`,
            'The agent is done and waits for your next message.',
            id,
            sources.open,
          );
        }
      }
      running = next;
    },
    { immediate: true },
  );
}
