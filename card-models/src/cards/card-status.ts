import {
  errorCodes,
  parseShellEnding,
  parseSpillNotice,
  parseTimeoutNotice,
  spillNotice,
  type ShellEnding,
} from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import type { CardBody, CardStatus, GenericRow } from './card-types.js';

const running: CardStatus = Object.freeze({ state: 'running', label: 'running' });
const done: CardStatus = Object.freeze({ state: 'ok', label: 'done' });
const failed: CardStatus = Object.freeze({ state: 'error', label: 'failed' });
const killed: CardStatus = Object.freeze({ state: 'error', label: 'killed' });
const timedOut: CardStatus = Object.freeze({ state: 'error', label: 'timed out' });
const error: CardStatus = Object.freeze({ state: 'error', label: 'error' });
const stopped: CardStatus = Object.freeze({ state: 'stopped', label: 'stopped' });
const declined: CardStatus = Object.freeze({ state: 'declined', label: 'declined' });
const denied: CardStatus = Object.freeze({ state: 'declined', label: 'denied' });

/** What a settled shell command reported: its ending and whether it timed out. */
interface ShellFacts {
  readonly ending: ShellEnding | undefined;
  readonly timedOut: boolean;
}

/**
 * The shell facts of a standard `bash`/`pwsh` call whose body is not a terminal (spilled
 * output: the markers sit before the spill notice), read from the row's output text.
 */
function shellFacts(block: ToolCallBlock, row: GenericRow, body: CardBody): ShellFacts | undefined {
  if (body.kind === 'terminal') return body;
  if (block.name !== 'bash' && block.name !== 'pwsh') return undefined;
  let text = row.resultText;
  const spill = parseSpillNotice(text);
  if (spill) text = text.slice(0, text.lastIndexOf(spillNotice(spill.path, spill.totalBytes)));
  const parsed = parseShellEnding(text);
  const output = parsed ? parsed.body : text;
  return { ending: parsed?.ending, timedOut: parseTimeoutNotice(output) !== undefined };
}

/**
 * The one state a card shows for its call, decided here so both clients agree: a command
 * that exited non-zero, was killed by a signal or ran past its time limit is not "done",
 * nor is a fetch answered with an HTTP error; a declined question or a denied call is a
 * person's decision (declined), not a failure; a Stop is `stopped` however it was recorded.
 */
export function cardStatus(block: ToolCallBlock, row: GenericRow, body: CardBody): CardStatus {
  if (row.state === 'running') return running;
  if (row.state === 'stopped') return stopped;
  if (row.errorCode === errorCodes.denied) return denied;
  if (row.errorCode === errorCodes.cancelled) return declined;
  if (body.kind === 'question' && body.state === 'cancelled') return declined;
  if (row.errorCode === errorCodes.timeout) return timedOut;
  if (row.errorCode === errorCodes.commandFailed) return failed;
  const shell = shellFacts(block, row, body);
  if (shell?.timedOut) return timedOut;
  if (shell?.ending?.kind === 'signal') return killed;
  if (shell?.ending?.kind === 'exit' && shell.ending.code !== 0) return failed;
  if (row.state === 'error') return error;
  if (body.kind === 'web' && body.tool === 'web_fetch' && body.state === 'ok') {
    if (body.statusCode >= 400) return failed;
  }
  return done;
}
