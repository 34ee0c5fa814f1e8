import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { ToolErrorSchema } from '@dsh/gen/events';
import type { ToolCallBlock, ToolCallStatus } from '../../src/conversation/types.js';
import type { PathFacts } from '../../src/cards/path-facts.js';

/** Path facts of a POSIX session used across the file-card tests. */
export const posix: PathFacts = { cwd: '/home/ada/project', home: '/home/ada' };

/** Path facts of a Windows session. */
export const windows: PathFacts = { cwd: 'C:\\Users\\ada\\project', home: 'C:\\Users\\ada' };

/** A text content block. */
export function text(value: string): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'text', value: { text: value } } });
}

/** What a test says about a result; omitted for a running call. */
export interface ResultInit {
  content?: readonly ContentBlock[] | string;
  /** Meta as a value (written as JSON) or raw JSON text when a string. */
  meta?: unknown;
  isError?: boolean;
  seq?: number;
}

/** Options of `toolBlock`. */
export interface BlockInit {
  callId?: string;
  status?: ToolCallStatus;
  result?: ResultInit;
  parentCallId?: string;
  /** False for an orphan whose call head is not in the window. */
  head?: boolean;
  turn?: number;
  seq?: number;
}

/** A hand-built tool block; `args` is written as JSON unless it is a string (kept raw). */
export function toolBlock(name: string, args: unknown, init: BlockInit = {}): ToolCallBlock {
  const status = init.status ?? (init.result ? (init.result.isError ? 'error' : 'ok') : 'running');
  const seq = init.seq ?? 10;
  const r = init.result;
  const head = init.head ?? true;
  return {
    callId: init.callId ?? 'call-1',
    name: head ? name : '',
    argsRaw: head ? (typeof args === 'string' ? args : JSON.stringify(args)) : '',
    parentCallId: init.parentCallId,
    turn: init.turn ?? 1,
    step: 0,
    seq,
    startTime: undefined,
    endTime: undefined,
    status,
    call: head ? { seq } : null,
    result: r && {
      content: typeof r.content === 'string' ? [text(r.content)] : (r.content ?? [text('done')]),
      isError: r.isError ?? false,
      error: r.isError
        ? create(ToolErrorSchema, { name: 'Error', code: 'failed', message: 'failed' })
        : undefined,
      metaJson:
        r.meta === undefined ? '' : typeof r.meta === 'string' ? r.meta : JSON.stringify(r.meta),
      seq: r.seq ?? seq + 1,
    },
    subCalls: [],
  };
}

/** The same block as a code-dispatch sub-call (children carry no meta). */
export function asSubCall(block: ToolCallBlock): ToolCallBlock {
  return {
    ...block,
    parentCallId: 'parent-1',
    result: block.result && { ...block.result, metaJson: '' },
  };
}

/** The same block with its meta replaced, keeping it a sub-call (to prove the rule is not about meta). */
export function asSubCallKeepingMeta(block: ToolCallBlock): ToolCallBlock {
  return { ...block, parentCallId: 'parent-1' };
}

/** The same block left open by a cancelled turn. */
export function asStopped(block: ToolCallBlock): ToolCallBlock {
  return { ...block, status: 'stopped' };
}
