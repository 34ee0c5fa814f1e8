import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { ToolFailure } from './tool-failure.js';
import type { Tool, ToolContext, ToolErrorInfo, ToolValue } from './tool.js';

/** The settled call, ready to record as `tool/result` (or `tool/code-dispatch`). */
export interface ToolRunResult {
  /** Model-visible content: one text block. */
  content: ContentBlock[];
  isError: boolean;
  error?: ToolErrorInfo;
  /** Card metadata as JSON text; '' for sub-calls and tools without metadata. */
  metaJson: string;
}

/** A tool definition as sent to the model. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Watches `run_code` sub-calls so the caller can record them as code-dispatch events. */
export interface DispatchObserver {
  start?(sub: { parentCallId: string; callId: string; name: string; arguments: string }): void;
  settle?(sub: { parentCallId: string; callId: string; result: ToolRunResult }): void;
  /** Live output of a sub-call while it runs (see `ToolContext.liveOutput`). */
  output?(sub: { parentCallId: string; callId: string; text: string }): void;
}

/** Runs tools by name; the agent loop's only way into them. */
export interface ToolRuntime {
  definitions(): ToolDefinition[];
  has(name: string): boolean;
  /**
   * Runs one call to completion, after `ctx.gate` lets it. Never throws: refused calls,
   * unknown tools, malformed arguments and failures come back as error results. Metadata
   * is computed for top-level calls only.
   */
  run(
    name: string,
    rawArgs: string,
    ctx: ToolContext,
    options: { topLevel: boolean },
  ): Promise<ToolRunResult>;
  /**
   * A `ctx.dispatch` for `run_code` calls under `parent`: sub-calls get ids
   * `<parentCallId>.<n>`, run as non-top-level calls through the same `run` (so the same
   * gate) with the parent's context, and are reported to `observer`.
   */
  createDispatch(
    parent: ToolContext,
    observer?: DispatchObserver,
  ): NonNullable<ToolContext['dispatch']>;
}

/** Creates the runtime over a fixed set of tools (names must be unique). */
export function createToolRuntime(tools: readonly Tool[]): ToolRuntime {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }

  const run: ToolRuntime['run'] = async (name, rawArgs, ctx, { topLevel }) => {
    const head = { callId: ctx.callId, name, rawArgs };
    let refused: ToolValue | undefined;
    try {
      refused = await ctx.gate(
        ctx.parentCallId === undefined ? head : { ...head, parentCallId: ctx.parentCallId },
        ctx.signal,
      );
    } catch (thrown) {
      refused = ToolFailure.from(thrown).toValue();
    }
    if (refused) return settle(refused, '');
    // A call let through after its turn was cancelled never starts.
    if (ctx.signal.aborted) {
      return settle(new ToolFailure(errorCodes.interrupted, interruptedMessage).toValue(), '');
    }
    const tool = byName.get(name);
    if (!tool) {
      const known = [...byName.keys()].join(', ');
      return settle(
        new ToolFailure('unknown_tool', `unknown tool "${name}" (available: ${known})`).toValue(),
        '',
      );
    }
    const parsed = tool.parseArgs(rawArgs);
    if (!parsed.ok) {
      const message = `invalid arguments for ${name}: ${parsed.error}`;
      return settle(new ToolFailure(errorCodes.invalidArguments, message).toValue(), '');
    }
    let value: ToolValue;
    try {
      value = await tool.execute(parsed.value, ctx);
    } catch (thrown) {
      value = ToolFailure.from(thrown).toValue();
    }
    return settle(value, topLevel ? metaJson(tool, parsed.value, value) : '');
  };

  function createDispatch(parent: ToolContext, observer?: DispatchObserver) {
    let next = 0;
    return async (name: string, rawArgs: string, signal?: AbortSignal): Promise<ToolRunResult> => {
      const callId = `${parent.callId}.${++next}`;
      const sub = { parentCallId: parent.callId, callId };
      observer?.start?.({ ...sub, name, arguments: rawArgs });
      const subCtx: ToolContext = {
        ...parent,
        callId,
        parentCallId: parent.callId,
        depth: (parent.depth ?? 0) + 1,
        signal: signal ? AbortSignal.any([parent.signal, signal]) : parent.signal,
        // The parent's own sink would put the sub-call's output on the parent's card.
        liveOutput: observer?.output ? (text) => observer.output?.({ ...sub, text }) : undefined,
      };
      subCtx.dispatch = createDispatch(subCtx, observer);
      const result = await run(name, rawArgs, subCtx, { topLevel: false });
      observer?.settle?.({ ...sub, result });
      return result;
    };
  }

  return {
    definitions: () =>
      tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    has: (name) => byName.has(name),
    run,
    createDispatch,
  };
}

/** The text of a result's content blocks, joined. */
export function resultText(result: ToolRunResult): string {
  return result.content
    .map((block) => (block.block.case === 'text' ? block.block.value.text : ''))
    .join('\n');
}

function settle(value: ToolValue, meta: string): ToolRunResult {
  const content = [
    create(ContentBlockSchema, { block: { case: 'text', value: { text: value.content } } }),
  ];
  const result: ToolRunResult = { content, isError: value.isError, metaJson: meta };
  if (value.isError) {
    result.error = value.error ?? { name: 'ToolError', code: 'tool_error', message: value.content };
  }
  return result;
}

function metaJson(tool: Tool, args: unknown, value: ToolValue): string {
  if (!tool.presentationMeta || value.value === undefined) return '';
  try {
    const meta = tool.presentationMeta(args, value.value);
    return meta === undefined ? '' : JSON.stringify(meta);
  } catch {
    return '';
  }
}
