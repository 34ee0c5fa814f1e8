import type { ContentBlock } from '@dsh/gen/content';
import { PromptMode, type RespondRequest } from '@dsh/gen/service';
import type { Journal } from '@dsh/journal';
import type { ModelProvider } from '@dsh/providers';
import type { ToolRuntime } from '@dsh/tools';
import { AgentError } from './agent-error.js';
import { answerPending } from './answer-pending.js';
import { type AllowedPaths, type ApprovalPolicy } from './approval-settings.js';
import { createConversationHistory, type ConversationHistory } from './conversation-history.js';
import { recoverDanglingTurn } from './dangling-turn.js';
import { createEventRecorder } from './event-recorder.js';
import { fitPayloads } from './fit-payloads.js';
import { createInputQueues } from './input-queues.js';
import { createPendingInteractions } from './pending-interactions.js';
import { runTurn, type TurnHost } from './run-turn.js';
import type { Input } from './turn-steps.js';

/** What an agent session is built from. */
export interface AgentSessionOptions {
  readonly journal: Journal;
  readonly provider: ModelProvider;
  readonly runtime: ToolRuntime;
  readonly approvals: Readonly<Record<string, ApprovalPolicy>>;
  readonly allowPaths: AllowedPaths;
  readonly systemPrompt: string;
  readonly spillDir: string;
  /** Most model steps one turn may take before it ends with an `agent/error`. */
  readonly maxSteps: number;
  readonly onStatus: (running: boolean) => void;
}

/** The agent of one session: its input queues, the running turn and pending answers. */
export interface AgentSession {
  readonly running: boolean;
  prompt(
    content: ContentBlock[],
    mode: PromptMode,
  ): Promise<{ started: boolean; queuePosition: number }>;
  /** Clears queued and steering input, aborts the running turn and waits for its `turn/end`. */
  cancel(): Promise<{ cancelled: boolean; cleared: number }>;
  respond(response: RespondRequest['response']): void;
  /** Resolves when no turn runs and nothing is queued. */
  idle(): Promise<void>;
}

/** The model's conversation so far and the last turn number, from a session's journal. */
async function readConversation(
  journal: Journal,
): Promise<{ history: ConversationHistory; lastTurn: number }> {
  const history = createConversationHistory();
  const existing = await journal.read(0, journal.length);
  history.add(existing);
  let lastTurn = 0;
  for (const event of existing) {
    if (event.payload.case === 'turnStart') lastTurn = Math.max(lastTurn, event.payload.value.turn);
  }
  return { history, lastTurn };
}

/** Opens the agent for a session, folding its journal into the model's conversation once. */
export async function openAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { journal } = options;
  const sessionId = journal.header.sessionId;
  await recoverDanglingTurn(journal);
  const { history, lastTurn } = await readConversation(journal);
  const host: TurnHost = {
    options,
    recorder: createEventRecorder(
      journal,
      (events) => history.add(events),
      (payloads) => fitPayloads(payloads, options.spillDir),
    ),
    pending: createPendingInteractions(),
    history,
    inputs: createInputQueues(),
    sessionAllowed: new Set<string>(),
    lastTurn,
    active: undefined,
    leftOpen: undefined,
    nextId: 0,
  };
  let drive: Promise<void> = Promise.resolve();

  /** Runs `first` and then each queued prompt; resolves once `first` is in the journal. */
  function start(first: Input): Promise<void> {
    let started!: (error?: unknown) => void;
    const recorded = new Promise<void>((resolve, reject) => {
      started = (error) => (error === undefined ? resolve() : reject(error));
    });
    options.onStatus(true);
    drive = (async () => {
      let next: Input | undefined = first;
      while (next) {
        await runTurn(host, next, started);
        next = host.inputs.next();
      }
      host.active = undefined;
      options.onStatus(false);
    })();
    return recorded;
  }

  return {
    get running() {
      return host.active !== undefined;
    },
    async prompt(content, mode) {
      if (journal.readOnly) {
        throw new AgentError(
          'failed_precondition',
          `session ${sessionId} is read-only: it cannot take input`,
        );
      }
      if (host.active && mode === PromptMode.STEER) {
        host.inputs.steer({ content, source: 'user' });
        return { started: false, queuePosition: 0 };
      }
      if (host.active) {
        return { started: false, queuePosition: host.inputs.queue({ content, source: 'queued' }) };
      }
      await start({ content, source: 'user' });
      return { started: true, queuePosition: 0 };
    },
    async cancel() {
      const cleared = host.inputs.clear();
      const turn = host.active;
      if (!turn) return { cancelled: false, cleared };
      turn.controller.abort();
      await turn.done;
      return { cancelled: true, cleared };
    },
    respond: (response) => answerPending(host.pending, sessionId, response),
    idle: () => drive,
  };
}
