import { errorCodes } from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { parseJsonObject, stringField } from './card-json.js';

/** Props of a plan card: the plan a person is asked to approve, as Markdown. */
export interface PlanCard {
  readonly kind: 'plan';
  /** The plan (Markdown, drawn safely); undefined when the transcript kept only its file. */
  readonly markdown: string | undefined;
  /** The file the plan was saved to, when known. */
  readonly path: string | undefined;
  /** `proposed` while waiting, `approved` once accepted, `rejected` when declined. */
  readonly state: 'proposed' | 'approved' | 'rejected' | 'stopped';
}

/**
 * The plan card of an imported plan-mode exit (`ExitPlanMode`): the plan from the
 * arguments, else from the result's meta (`PlanMeta`), and whether it was approved.
 * Malformed arguments, a missing call head or an error other than a refusal give
 * `undefined` (the Generic card).
 */
export function planCard(block: ToolCallBlock): PlanCard | undefined {
  if (block.call === null || block.name !== 'ExitPlanMode') return undefined;
  const args = parseJsonObject(block.argsRaw);
  if (!args) return undefined;
  const meta = block.result ? parseJsonObject(block.result.metaJson) : undefined;
  const markdown = stringField(args, 'plan') || (meta && stringField(meta, 'plan')) || undefined;
  const path = (meta && stringField(meta, 'path')) || undefined;
  const code = block.result?.error?.code ?? '';
  const state =
    block.status === 'running'
      ? 'proposed'
      : block.status === 'stopped'
        ? 'stopped'
        : block.status === 'ok'
          ? 'approved'
          : code === errorCodes.denied || code === errorCodes.cancelled
            ? 'rejected'
            : undefined;
  return state === undefined ? undefined : { kind: 'plan', markdown, path, state };
}
