import { mkdirSync } from 'node:fs';
import {
  createConversation,
  deriveCard,
  type Card,
  type ConversationSnapshot,
  type ToolCallBlock,
} from '@dsh/card-models';
import {
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  questionRequested,
  questionResolved,
  toolCall,
  toolCallBlock,
  toolResult,
  turnStart,
  type Payload,
} from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import {
  resultText,
  type FirstPartyToolOptions,
  type ToolContext,
  type ToolRunResult,
  type UserAnswers,
  type UserQuestion,
} from '../../src/index.js';
import { createToolHarness } from '../tool-harness.js';

/** How the person answers `ask_user` in a case: answers, a refusal, or never (abort). */
export type Answering = UserAnswers | 'cancelled' | 'abort';

/** One real tool execution turned into raw events and the cards derived from them. */
export interface CardRun {
  callId: string;
  result: ToolRunResult;
  text: string;
  /** Every event of the exchange, in journal order (the result last). */
  events: SessionEvent[];
  /** The block and card with the window cut before `tool/result` (the call running). */
  runningBlock: ToolCallBlock;
  runningCard: Card;
  /** The block and card of the whole exchange. */
  block: ToolCallBlock;
  card: Card;
}

/** Options of one run. */
export interface RunOptions {
  /** Answers for `ask_user`; without it the context has no `askUser`. */
  answer?: Answering;
}

/**
 * Real first-party tools over a tool harness (cwd, home, spill dir) that record every
 * execution the way the agent does (assistant message, `tool/call`, question and
 * code-dispatch events, `tool/result` with meta) and fold those events through
 * card-models' `createConversation` and `deriveCard`.
 */
export function createContractHarness(options: FirstPartyToolOptions = {}) {
  const harness = createToolHarness(options);
  const { root, cwd, home, spillDir, runtime } = harness;
  mkdirSync(home);
  const facts = { cwd, home };
  let calls = 0;

  async function run(name: string, args: unknown, opts: RunOptions = {}): Promise<CardRun> {
    const raw = typeof args === 'string' ? args : JSON.stringify(args);
    const callId = `call-${++calls}`;
    const at = { turn: 1, step: 0 };
    const payloads: Payload[] = [
      turnStart(1),
      assistantMessage(at, [toolCallBlock(callId, name, raw)]),
      toolCall(callId, name, raw, at),
    ];
    const abort = new AbortController();
    const ctx = harness.context({ signal: abort.signal, sessionId: 'contract', callId });
    if (opts.answer !== undefined) ctx.askUser = askUser(callId, opts.answer, payloads, abort);
    ctx.dispatch = runtime.createDispatch(ctx, {
      start: (sub) =>
        payloads.push(codeDispatchStart(sub.parentCallId, sub.callId, sub.name, sub.arguments)),
      settle: (sub) =>
        payloads.push(
          codeDispatch(sub.parentCallId, sub.callId, resultText(sub.result), sub.result.error),
        ),
    });
    const result = await runtime.run(name, raw, ctx, { topLevel: true });
    const text = resultText(result);
    payloads.push(
      toolResult(callId, text, {
        ...at,
        error: result.error,
        meta: result.metaJson === '' ? undefined : result.metaJson,
      }),
    );
    const all = events(payloads);
    const runningBlock = blockOf(fold(all.slice(0, -1)), callId);
    const block = blockOf(fold(all), callId);
    return {
      callId,
      result,
      text,
      events: all,
      runningBlock,
      runningCard: deriveCard(runningBlock, facts),
      block,
      card: deriveCard(block, facts),
    };
  }

  return {
    root,
    cwd,
    home,
    spillDir,
    facts,
    run,
    dispose: harness.dispose,
  };
}

/** The harness type. */
export type ContractHarness = ReturnType<typeof createContractHarness>;

/** An `askUser` that records `question/*` like the agent and answers as the case says. */
function askUser(
  callId: string,
  answer: Answering,
  payloads: Payload[],
  abort: AbortController,
): NonNullable<ToolContext['askUser']> {
  return async (questions: UserQuestion[]) => {
    const questionId = `q-${callId}`;
    payloads.push(questionRequested(questionId, callId, questions));
    // A cancelled turn aborts the call; the agent then settles the question as cancelled.
    if (answer === 'abort') abort.abort();
    const settled = answer === 'abort' ? 'cancelled' : answer;
    payloads.push(questionResolved(questionId, settled));
    return settled;
  };
}

function fold(window: SessionEvent[]): ConversationSnapshot {
  const result = createConversation().tryApply({ kind: 'replace', events: window });
  if (!result.ok) throw new Error(result.error.message);
  return result.snapshot;
}

/** The tool block of `callId` from the assistant node that requested it. */
function blockOf(snapshot: ConversationSnapshot, callId: string): ToolCallBlock {
  for (const node of snapshot.nodes) {
    if (node.kind !== 'assistant') continue;
    for (const block of node.blocks) {
      if (block.kind === 'tool-call' && block.callId === callId) return block.tool;
    }
  }
  throw new Error(`no tool block for ${callId}`);
}
