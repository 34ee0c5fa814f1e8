import { ConnectError } from '@connectrpc/connect';
import { errorCode } from './read-session.js';

/** How one request ended: `ok`, or the error's code and message. */
export interface Answer {
  readonly code: string;
  readonly message: string;
}

/** Runs a request with a timeout and reports how it ended; never throws. */
export async function answerOf(
  request: (signal: AbortSignal) => Promise<unknown>,
  timeoutMs = 10_000,
): Promise<Answer> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    await request(abort.signal);
    return { code: 'ok', message: '' };
  } catch (error) {
    if (abort.signal.aborted)
      return { code: 'timeout', message: `no answer within ${timeoutMs} ms` };
    return {
      code: errorCode(error),
      message: error instanceof ConnectError ? error.rawMessage : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Whether an error answer is clear: a specific code, and a message that names `words`. */
export function isClear(answer: Answer, words: RegExp): boolean {
  if (answer.code === 'ok') return true;
  if (['internal', 'unknown', 'timeout', 'not a ConnectError'].includes(answer.code)) return false;
  return words.test(answer.message);
}

/** `Prompt: internal "..."`, short. */
export function describeAnswer(what: string, answer: Answer): string {
  return answer.code === 'ok'
    ? `${what}: ok`
    : `${what}: ${answer.code} "${answer.message.slice(0, 90)}"`;
}
