import type { ProviderMessage } from './provider.js';

/** The marker a demo summary ends with, so the script finds its place after a compaction. */
const positionPattern = /Demo tour position: (finished|step (\d+) done)\./;
const callPattern = /\(call demo-\d+-(\d+)-\d+\)/g;

/**
 * The demo model's answer to a compaction request: not a summary an AI wrote but a
 * mechanical account of the transcript it was given (how many messages of each kind,
 * the tools called, the latest request), which says so, and ends with where the tour
 * stands so it can carry on from the summary alone.
 */
export function demoSummary(messages: readonly ProviderMessage[]): string {
  const request = messages.findLast((m) => m.role === 'user')?.content ?? '';
  const transcript = /<transcript>\n([\s\S]*)\n<\/transcript>/.exec(request)?.[1] ?? '';
  const previous = /<summary>\n([\s\S]*?)\n<\/summary>/.exec(request)?.[1];
  const count = (label: string): number =>
    transcript.split('\n').filter((line) => line.startsWith(`[${label}`)).length;
  const tools = new Map<string, number>();
  for (const match of transcript.matchAll(/^\[assistant called (\S+) \(call /gm)) {
    const name = match[1] ?? '';
    tools.set(name, (tools.get(name) ?? 0) + 1);
  }
  const users = [...transcript.matchAll(/^\[user\]\n(.*)$/gm)]
    .map((m) => m[1] ?? '')
    .filter((text) => !text.startsWith('Working directory:'));
  const latest = users.at(-1);
  const used = [...tools].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
  return [
    'I am the demo model, a script: this summary is mechanical, not written by an AI.',
    ...(previous === undefined ? [] : ['It extends the summary of an earlier compaction.']),
    `The part of the conversation it replaces had ${count('user')} user and ` +
      `${count('assistant]')} assistant messages and ${count('result of call')} tool results.`,
    ...(used === '' ? [] : [`Tools called: ${used}.`]),
    ...(latest === undefined ? [] : [`The latest request: "${latest.slice(0, 200)}".`]),
    tourPosition(transcript, previous),
  ].join('\n');
}

/** Where the tour stands at the end of `transcript` (or of the earlier summary). */
function tourPosition(transcript: string, previous: string | undefined): string {
  let last: { step: number; at: number } | undefined;
  for (const match of transcript.matchAll(callPattern)) {
    last = { step: Number(match[1]), at: match.index };
  }
  if (last === undefined) {
    return positionPattern.exec(previous ?? '')?.[0] ?? 'Demo tour position: finished.';
  }
  // An assistant message after the last tour call is the tour's closing message.
  const closed = transcript.slice(last.at).includes('\n[assistant]');
  return closed ? 'Demo tour position: finished.' : `Demo tour position: step ${last.step} done.`;
}

/** The step after the one a summary's position line names; undefined when none is named. */
export function stepAfterSummary(summary: string): number | undefined {
  const match = positionPattern.exec(summary);
  if (match === null) return undefined;
  return match[2] === undefined ? 0 : Number(match[2]) + 1;
}
