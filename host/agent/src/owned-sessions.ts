import {
  decodeAnswer,
  decodeInput,
  encodeAnswer,
  encodeError,
  encodeInput,
  type AgentInput,
  type InputAnswers,
  type SessionOwnership,
} from './session-ownership.js';

/** What the routing needs from the runtime's sessions on this host. */
export interface LocalSessions {
  /** Runs an input on this host's agent of the session (opened on first use). */
  run<K extends AgentInput['kind']>(
    sessionId: string,
    input: Extract<AgentInput, { kind: K }>,
  ): Promise<InputAnswers[K]>;
  /** True while the session has a turn or a job running here. */
  busy(sessionId: string): boolean;
  /** Opens the session's agent here (closing a dangling turn, replaying its queue). */
  open(sessionId: string): Promise<void>;
  /** Forgets this host's agent of an idle session: its next owner reads the journal afresh. */
  evict(sessionId: string): void;
  /** Aborts the session's running turn here. */
  abort(sessionId: string): Promise<void>;
}

/** Input routed by session ownership: run here when this host holds the lease, else forwarded. */
export interface OwnedSessions {
  route<K extends AgentInput['kind']>(
    sessionId: string,
    input: Extract<AgentInput, { kind: K }>,
  ): Promise<InputAnswers[K]>;
  /** Opens the session here when no host holds its lease (a restart's queue replay). */
  adoptIfFree(sessionId: string): Promise<boolean>;
  /** The session went idle here: give its lease back. */
  idle(sessionId: string): void;
}

/**
 * Routes a runtime's input through `ownership`: the host that holds a session's lease
 * runs it, every other host forwards the input and returns the owner's answer. The lease
 * is claimed before a session runs here and given back once it is idle (no turn running,
 * nothing queued, no input on its way), so an idle session has no owner and the next
 * host to get input for it takes it.
 */
export function createOwnedSessions(
  ownership: SessionOwnership,
  local: LocalSessions,
  /** A session started or stopped running on another host. */
  remoteStatus: (sessionId: string, running: boolean) => void,
): OwnedSessions {
  const held = new Set<string>();
  const inflight = new Map<string, number>();
  const locks = new Map<string, Promise<unknown>>();

  /** Claims and releases of one session run one at a time, so a release never races a claim. */
  function locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const before = locks.get(sessionId) ?? Promise.resolve();
    const next = before.then(work, work);
    const settled = next.catch(() => undefined);
    locks.set(sessionId, settled);
    void settled.then(() => {
      if (locks.get(sessionId) === settled) locks.delete(sessionId);
    });
    return next;
  }

  const count = (sessionId: string, by: number): void => {
    const n = (inflight.get(sessionId) ?? 0) + by;
    if (n === 0) inflight.delete(sessionId);
    else inflight.set(sessionId, n);
  };

  function idle(sessionId: string): void {
    void locked(sessionId, async () => {
      if (!held.has(sessionId) || inflight.has(sessionId) || local.busy(sessionId)) return;
      if (await ownership.release(sessionId)) {
        held.delete(sessionId);
        local.evict(sessionId);
      }
    }).catch(() => undefined);
  }

  async function route<K extends AgentInput['kind']>(
    sessionId: string,
    input: Extract<AgentInput, { kind: K }>,
  ): Promise<InputAnswers[K]> {
    count(sessionId, 1);
    try {
      const claim = await locked(sessionId, () => ownership.claim(sessionId));
      if (!claim.owned) {
        held.delete(sessionId);
        local.evict(sessionId);
        return decodeAnswer(input.kind, await ownership.forward(sessionId, encodeInput(input)));
      }
      held.add(sessionId);
      return await local.run(sessionId, input);
    } finally {
      count(sessionId, -1);
      idle(sessionId);
    }
  }

  function adopted(sessionId: string): void {
    held.add(sessionId);
    if (!local.busy(sessionId)) local.evict(sessionId);
    count(sessionId, 1);
    local
      .open(sessionId)
      .catch((cause: unknown) => {
        console.error(`dsh: cannot take over session ${sessionId}:`, cause);
      })
      .finally(() => {
        count(sessionId, -1);
        idle(sessionId);
      });
  }

  ownership.serve({
    async input(sessionId, body) {
      try {
        const input = decodeInput(body);
        return encodeAnswer(input.kind, await route(sessionId, input));
      } catch (error) {
        return encodeError(error);
      }
    },
    adopted,
    lost(sessionId) {
      held.delete(sessionId);
      void local.abort(sessionId).finally(() => local.evict(sessionId));
    },
    status: remoteStatus,
  });

  return {
    route,
    async adoptIfFree(sessionId) {
      const claim = await locked(sessionId, () => ownership.claim(sessionId));
      if (!claim.owned) return false;
      adopted(sessionId);
      return true;
    },
    idle,
  };
}
