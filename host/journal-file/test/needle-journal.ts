import { open } from 'node:fs/promises';
import { assistantMessage, events, userMessage } from '@dsh/fixtures';
import { encodeEventLine, encodeHeaderLine } from '@dsh/journal';
import { header } from './journal-test-kit.js';

/** Options of `writeNeedleJournal`. */
export interface NeedleJournalOptions {
  readonly sessionId: string;
  /** Exactly how many events. */
  readonly events: number;
  /** The seq of the one user message that says `needle`. */
  readonly needleSeq: number;
  readonly needle: string;
  /** More user messages, each at its own seq (other than `needleSeq`). */
  readonly moreNeedles?: readonly { readonly seq: number; readonly text: string }[];
}

/**
 * Writes a journal of alternating short user and assistant messages with one needle
 * prompt at `needleSeq` (and any `moreNeedles`), fast (the lines are templates with the seq filled in, written
 * in 4 MB batches): a 1,000,000-event journal (about 130 MB) takes seconds, so a test
 * can build the session it searches instead of keeping one in the repository.
 */
export async function writeNeedleJournal(
  path: string,
  options: NeedleJournalOptions,
): Promise<number> {
  const [user, assistant] = events([
    userMessage('please look at the build once more'),
    assistantMessage({ turn: 1 }, ['I looked at the build; nothing changed.']),
  ]).map((e) => encodeEventLine({ ...e, seq: 999_999_999 }).split('999999999'));
  const needles = new Map([
    [options.needleSeq, options.needle],
    ...(options.moreNeedles ?? []).map((n) => [n.seq, n.text] as const),
  ]);
  const file = await open(path, 'w');
  let bytes = 0;
  try {
    let batch = encodeHeaderLine(header(options.sessionId, { title: 'needle session' })) + '\n';
    for (let seq = 0; seq < options.events; seq++) {
      const needle = needles.get(seq);
      if (needle !== undefined) {
        const [event] = events([userMessage(needle)], seq);
        batch += encodeEventLine(event!) + '\n';
      } else {
        const parts = seq % 2 === 0 ? user! : assistant!;
        batch += parts.join(String(seq)) + '\n';
      }
      if (batch.length > 4 << 20) {
        bytes += (await file.write(batch)).bytesWritten;
        batch = '';
      }
    }
    bytes += (await file.write(batch)).bytesWritten;
  } finally {
    await file.close();
  }
  return bytes;
}
