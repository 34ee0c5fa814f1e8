import { setTimeout as sleep } from 'node:timers/promises';
import { ApprovalDecision, type SessionEvent } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { followSession } from '@dsh/cli/test-kit';
import { textContent, type SessionClient } from './clients.js';

/** How one prompt's turn is driven. */
export interface TurnPlan {
  readonly prompt: string;
  /** The answer given to every `approval/requested` of the turn. */
  readonly answer: 'deny' | 'allow';
  /** How long the turn may run before it is cancelled. */
  readonly windowMs: number;
  /** Cancel as soon as this holds (polled every 100 ms), e.g. a child process appeared. */
  readonly cancelWhen?: () => boolean;
  /** Whether the host process still runs; a dead host ends the wait at once. */
  readonly alive?: () => boolean;
}

/** What happened to the turn. */
export interface TurnOutcome {
  /** Every event of the session seen by the follower. */
  readonly events: readonly SessionEvent[];
  /** A `turn/end` arrived. */
  readonly ended: boolean;
  /** The soak sent Cancel (window over or `cancelWhen`). */
  readonly cancelled: boolean;
  /** Cancel (or Prompt) got no answer within its timeout: the host is stuck. */
  readonly stuck: boolean;
  /** `approval/requested` events seen. */
  readonly approvals: number;
  /** Time from Prompt to turn end (or to giving up), ms. */
  readonly ms: number;
}

const rpcTimeoutMs = 5_000;

/**
 * Prompts a session and follows it until its turn ends, answering approvals as planned
 * and cancelling when the window is over. Never waits longer than about
 * `windowMs + 2 * rpcTimeoutMs`, however stuck the host is.
 */
export async function driveTurn(
  client: SessionClient,
  sessionId: string,
  plan: TurnPlan,
): Promise<TurnOutcome> {
  let approvals = 0;
  const follower = followSession(client, sessionId, (event) => {
    if (event.payload.case !== 'approvalRequested') return;
    approvals++;
    const decision = plan.answer === 'allow' ? ApprovalDecision.ALLOW : ApprovalDecision.DENY;
    void client
      .respond(
        {
          sessionId,
          response: {
            case: 'approval',
            value: { approvalId: event.payload.value.approvalId, decision },
          },
        },
        { timeoutMs: rpcTimeoutMs },
      )
      .catch(() => undefined);
  });
  const started = performance.now();
  const turnStarts = (): number =>
    follower.events.filter((e) => e.payload.case === 'turnStart').length;
  let stuck = false;
  let cancelled = false;
  try {
    await client.prompt(
      { sessionId, content: textContent(plan.prompt), mode: PromptMode.QUEUE },
      { timeoutMs: rpcTimeoutMs },
    );
  } catch {
    stuck = true;
  }
  const ended = (): boolean =>
    turnStarts() > 0 && follower.events.some((e) => e.payload.case === 'turnEnd');
  const alive = plan.alive ?? (() => true);
  const deadline = started + plan.windowMs;
  while (!stuck && !ended() && alive() && performance.now() < deadline) {
    if (plan.cancelWhen?.()) break;
    await sleep(100);
  }
  if (!stuck && !ended() && alive()) {
    cancelled = true;
    try {
      await client.cancel({ sessionId }, { timeoutMs: rpcTimeoutMs });
    } catch {
      stuck = true;
    }
    const until = performance.now() + rpcTimeoutMs;
    while (!stuck && !ended() && performance.now() < until) await sleep(50);
  }
  const ms = performance.now() - started;
  await Promise.race([follower.stop(), sleep(1_000)]);
  return { events: follower.events, ended: ended(), cancelled, stuck, approvals, ms };
}
