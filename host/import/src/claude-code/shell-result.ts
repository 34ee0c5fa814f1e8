import { exitMarker } from '@dsh/card-models/contract';
import { isRecord, stringOf } from '../json-fields.js';

/** Interpretations Claude Code gives a non-zero exit it does not count as failure. */
const exitOneInterpretations = [/no matches found/i, /files differ/i, /^some files differ/i];

/**
 * Adds the dsh exit marker to Claude Code `Bash` output when the transcript says how
 * the command ended: exit 0 for a normal result, N for an error that starts with
 * `Exit code N`, or the code named by `returnCodeInterpretation`. Output whose ending
 * is unknown (background launches, timeouts, older transcripts) is left as it is.
 */
export function shellOutput(text: string, isError: boolean, toolUseResult: unknown): string {
  const facts = isRecord(toolUseResult) ? toolUseResult : undefined;
  if (isError) {
    const match = /^Exit code (-?\d+)(?:\n|$)/.exec(text);
    if (!match) return text;
    return withMarker(text.slice(match[0].length), Number(match[1]));
  }
  if (facts === undefined || facts.interrupted === true) return text;
  if (typeof facts.backgroundTaskId === 'string' || facts.isImage === true) return text;
  const interpretation = stringOf(facts, 'returnCodeInterpretation');
  if (interpretation === undefined || interpretation === '') return withMarker(text, 0);
  const named = /exit code (-?\d+)/i.exec(interpretation);
  if (named) return withMarker(text, Number(named[1]));
  if (exitOneInterpretations.some((pattern) => pattern.test(interpretation))) {
    return withMarker(text, 1);
  }
  return text;
}

function withMarker(body: string, code: number): string {
  const separator = body === '' || body.endsWith('\n') ? '' : '\n';
  return `${body}${separator}${exitMarker(code)}`;
}
