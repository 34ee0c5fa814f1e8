import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ExtensionEventSchema, SessionEventSchema, type SessionEvent } from '@dsh/gen/events';

/**
 * The largest journal line (one event, without its newline) the host writes or reads:
 * 16 MiB, a quarter of the 64 MiB largest response, so a page or follow frame that
 * carries one always fits. Appends over it are refused; older lines over it are served
 * as `dsh/oversized-line` stand-ins and never read whole.
 */
export const maxEventLineBytes = 16 * 1024 * 1024;

/** How much of an oversized line a scan keeps: enough for its seq, time and type. */
export const lineHeadBytes = 4096;

/** The extension type of the stand-in served for a line over `maxEventLineBytes`. */
export const oversizedLineType = 'dsh/oversized-line';

/** What the index keeps of a line too large to serve. */
export interface OversizedLine {
  /** The journal type of the event the line holds. */
  readonly type: string;
  readonly time: Date;
  /** Its size in bytes, without the newline. */
  readonly bytes: number;
}

const headPattern = /^\{"seq":(\d+),"time":("(?:[^"\\]|\\.)*"),"type":("(?:[^"\\]|\\.)*")/;

/**
 * Reads seq, time and type from the first bytes of a line, as `encodeEventLine` writes
 * them (head first), without parsing the rest; undefined when the prefix has no such head.
 */
export function parseLineHead(
  prefix: string,
): { seq: number; time: Date; type: string } | undefined {
  const match = headPattern.exec(prefix);
  if (match === null) return undefined;
  try {
    const time = new Date(JSON.parse(match[2]!) as string);
    const type = JSON.parse(match[3]!) as string;
    if (Number.isNaN(time.getTime()) || type === '') return undefined;
    return { seq: Number(match[1]), time, type };
  } catch {
    return undefined;
  }
}

/**
 * The event served in place of a line too large to serve: an extension event of type
 * `dsh/oversized-line` that says what the line held and how large it is, so a page or
 * follow stream goes on past it while the file keeps the line unchanged.
 */
export function oversizedLineEvent(seq: number, line: OversizedLine): SessionEvent {
  const data = {
    originalType: line.type,
    bytes: line.bytes,
    limit: maxEventLineBytes,
    message:
      `event ${seq} (${line.type}) is a ${line.bytes}-byte journal line, over the ` +
      `${maxEventLineBytes}-byte limit, so it is not served; the journal file keeps it unchanged`,
  };
  return create(SessionEventSchema, {
    seq,
    time: timestampFromDate(line.time),
    payload: {
      case: 'extension',
      value: create(ExtensionEventSchema, {
        type: oversizedLineType,
        dataJson: JSON.stringify(data),
      }),
    },
  });
}
