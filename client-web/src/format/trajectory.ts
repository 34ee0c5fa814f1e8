import type { ConversationNode, ToolCallBlock } from '@dsh/card-models';
import { timestampMs } from './relative-time.js';

/** One bar of the trajectory waterfall. */
export interface TrajectoryRow {
  readonly key: string;
  readonly kind: 'turn' | 'step' | 'call';
  readonly label: string;
  readonly depth: number;
  readonly startMs: number;
  readonly endMs: number;
  /** Set on call rows: selecting the row selects the call. */
  readonly callId?: string;
  readonly state?: ToolCallBlock['status'];
}

/** The waterfall and its time range. */
export interface Trajectory {
  readonly rows: readonly TrajectoryRow[];
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Turns, model steps and tool calls (sub-calls nested under their parent) of the loaded
 * window over time. A step spans from the end of the previous step (or the turn's
 * start) to its assistant message; a running call extends to `nowMs`.
 */
export function trajectory(nodes: readonly ConversationNode[], nowMs: number): Trajectory {
  const rows: TrajectoryRow[] = [];
  let turnRows: TrajectoryRow[] = [];
  let turn: number | undefined;
  let turnStart = 0;
  let lastUserMs = 0;
  let stepStart = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;

  const closeTurn = (endMs: number | undefined): void => {
    if (turn === undefined) return;
    const ends = turnRows.map((row) => row.endMs);
    const end = Math.max(endMs ?? 0, ...ends, turnStart);
    rows.push(
      {
        key: `turn-${turn}-${turnStart}`,
        kind: 'turn',
        label: `Turn ${turn}`,
        depth: 0,
        startMs: turnStart,
        endMs: end,
      },
      ...turnRows,
    );
    max = Math.max(max, end);
    turn = undefined;
    turnRows = [];
  };
  const addCall = (block: ToolCallBlock, depth: number): void => {
    const start = timestampMs(block.startTime) || stepStart;
    const end = timestampMs(block.endTime) || (block.status === 'running' ? nowMs : start);
    turnRows.push({
      key: `call-${block.callId}`,
      kind: 'call',
      label: block.name || block.callId,
      depth,
      startMs: start,
      endMs: Math.max(start, end),
      callId: block.callId,
      state: block.status,
    });
    min = Math.min(min, start);
    for (const sub of block.subCalls) addCall(sub, depth + 1);
  };
  const enterTurn = (next: number, atMs: number): void => {
    if (turn === next) return;
    closeTurn(undefined);
    turn = next;
    turnStart = lastUserMs || atMs;
    stepStart = turnStart;
    min = Math.min(min, turnStart);
  };

  for (const node of nodes) {
    const at = timestampMs(node.time);
    switch (node.kind) {
      case 'user':
        lastUserMs = at;
        break;
      case 'assistant': {
        enterTurn(node.turn, at);
        const start = Math.min(stepStart, at);
        turnRows.push({
          key: `step-${node.seq}`,
          kind: 'step',
          label: `Step ${node.step}${node.interrupted ? ' (interrupted)' : ''}`,
          depth: 1,
          startMs: start,
          endMs: at,
        });
        for (const block of node.blocks) if (block.kind === 'tool-call') addCall(block.tool, 2);
        stepStart = at;
        break;
      }
      case 'tool-result':
        enterTurn(node.tool.turn, at);
        addCall(node.tool, 2);
        break;
      case 'turn-end':
        if (turn === node.turn) closeTurn(at);
        lastUserMs = 0;
        break;
      case 'steering':
      case 'context':
      case 'agent-error':
      case 'compaction':
      case 'unknown':
        break;
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled node ${JSON.stringify(unhandled)}`);
      }
    }
  }
  closeTurn(undefined);
  if (rows.length === 0) return { rows, startMs: 0, endMs: 0 };
  for (const row of rows) {
    min = Math.min(min, row.startMs);
    max = Math.max(max, row.endMs);
  }
  return { rows, startMs: min, endMs: Math.max(max, min + 1) };
}
