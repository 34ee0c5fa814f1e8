import { flattenContent } from '@dsh/card-models';
import { TurnEndReason } from '@dsh/gen/events';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import type { TuiState } from './tui-state.js';

/**
 * A prompt this client sent while a turn ran: it waits on the host (queued, or steering
 * for the next step) until its message shows in the window.
 */
export interface QueuedPrompt {
  readonly text: string;
  readonly mode: 'queue' | 'steer';
  /** The window's end seq when it was sent: its message comes at or after it. */
  readonly afterSeq: number;
}

/** Notes a prompt sent while the open session runs a turn. */
export function enqueuePrompt(state: TuiState, prompt: QueuedPrompt): void {
  state.queue = [...state.queue, prompt];
}

/** Forgets a prompt (its send failed). */
export function dropQueued(state: TuiState, prompt: QueuedPrompt): void {
  state.queue = state.queue.filter((entry) => entry !== prompt);
}

/**
 * Removes the queued prompts whose message arrived (a user message for a queued prompt, a
 * steering message for a steer, same text, in order), and all of them when a turn was
 * stopped after they were sent (a stop clears the host's queue). Looks only at the nodes
 * since the oldest prompt was sent.
 */
export function settleQueue(state: TuiState): void {
  if (state.queue.length === 0) return;
  const nodes = state.open?.window.state.snapshot.nodes ?? [];
  const from = Math.min(...state.queue.map((entry) => entry.afterSeq));
  let start = nodes.length;
  while (start > 0 && (nodes[start - 1]?.seq ?? 0) >= from) start--;
  let left = [...state.queue];
  for (let i = start; i < nodes.length; i++) {
    const node = nodes[i];
    if (node === undefined) continue;
    if (node.kind === 'turn-end' && node.reason === TurnEndReason.CANCELLED) {
      left = left.filter((entry) => entry.afterSeq > node.seq);
      continue;
    }
    const mode = node.kind === 'user' ? 'queue' : node.kind === 'steering' ? 'steer' : undefined;
    if (mode === undefined || !('content' in node)) continue;
    const text = flattenContent(node.content);
    const match = left.findIndex(
      (entry) => entry.mode === mode && entry.afterSeq <= node.seq && entry.text === text,
    );
    if (match >= 0) left.splice(match, 1);
  }
  if (left.length !== state.queue.length) state.queue = left;
}

/** Queued prompts shown above the composer: at most three, then how many more. */
export const queueShown = 3;

/** The rows of the visible queue: what this client sent that waits for the running turn. */
export function queueLines(state: TuiState, width: number): StyledLine[] {
  const lines = state.queue
    .slice(0, queueShown)
    .map((entry) =>
      truncateLine(
        [
          seg(entry.mode === 'steer' ? '↪ steering ' : '⧗ queued ', theme.notice),
          seg(oneLine(entry.text), theme.dim),
        ],
        width,
      ),
    );
  const more = state.queue.length - queueShown;
  if (more > 0) lines.push([seg(`  … ${more} more queued`, theme.dim)]);
  return lines;
}
