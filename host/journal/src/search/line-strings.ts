/** A string value in a journal line: its path and the byte range of its JSON content. */
export interface LineString {
  /** Keys and array indexes joined with '.', e.g. `content.0.text.text`. */
  readonly path: string;
  /** First byte after the opening quote. */
  readonly start: number;
  /** The closing quote's byte. */
  readonly end: number;
}

/** The top-level facts of a line and its string values down to `maxDepth`. */
export interface LineShape {
  readonly seq: number | undefined;
  readonly strings: LineString[];
}

const maxDepth = 4;
const quote = 0x22;
const backslash = 0x5c;

/**
 * Walks one JSON line (an object) and reports every string value at most four levels
 * deep with its byte range, without decoding them: a search then checks that a match
 * lies inside a field a person reads, never in a key or in JSON syntax. Deeper values
 * are skipped without recursion, so no line can exhaust the stack. Returns undefined
 * for a line that is not a JSON object.
 */
export function lineStrings(line: Uint8Array): LineShape | undefined {
  const walker = new Walker(line);
  walker.space();
  if (line[walker.pos] !== 0x7b) return undefined;
  try {
    walker.value('', 0);
  } catch {
    return undefined;
  }
  return { seq: walker.seq, strings: walker.strings };
}

class Walker {
  pos = 0;
  seq: number | undefined;
  readonly strings: LineString[] = [];

  constructor(private readonly buf: Uint8Array) {}

  space(): void {
    const { buf } = this;
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos += 1;
    }
  }

  /** Reads a string starting at its opening quote; returns its content range. */
  string(): [number, number] {
    const { buf } = this;
    const start = this.pos + 1;
    let i = start;
    while (i < buf.length) {
      const c = buf[i]!;
      if (c === backslash) i += 2;
      else if (c === quote) {
        this.pos = i + 1;
        return [start, i];
      } else i += 1;
    }
    throw new Error('unterminated string');
  }

  key(): string {
    const [start, end] = this.string();
    const raw = Buffer.from(this.buf.buffer, this.buf.byteOffset + start, end - start).toString(
      'utf8',
    );
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  value(path: string, depth: number): void {
    this.space();
    const c = this.buf[this.pos];
    if (depth > maxDepth && (c === 0x7b || c === 0x5b)) return this.skip();
    if (c === quote) {
      const [start, end] = this.string();
      this.strings.push({ path, start, end });
    } else if (c === 0x7b) this.object(path, depth);
    else if (c === 0x5b) this.array(path, depth);
    else this.scalar(path, depth);
  }

  object(path: string, depth: number): void {
    this.pos += 1;
    this.space();
    if (this.buf[this.pos] === 0x7d) {
      this.pos += 1;
      return;
    }
    for (;;) {
      this.space();
      if (this.buf[this.pos] !== quote) throw new Error('expected a key');
      const key = this.key();
      this.space();
      if (this.buf[this.pos] !== 0x3a) throw new Error('expected a colon');
      this.pos += 1;
      this.value(path === '' ? key : `${path}.${key}`, depth + 1);
      if (!this.next(0x7d)) return;
    }
  }

  array(path: string, depth: number): void {
    this.pos += 1;
    this.space();
    if (this.buf[this.pos] === 0x5d) {
      this.pos += 1;
      return;
    }
    for (let index = 0; ; index += 1) {
      this.value(`${path}.${index}`, depth + 1);
      if (!this.next(0x5d)) return;
    }
  }

  /** After a member: true on a comma, false (consumed) on the closing bracket. */
  next(close: number): boolean {
    this.space();
    const c = this.buf[this.pos];
    this.pos += 1;
    if (c === 0x2c) return true;
    if (c === close) return false;
    throw new Error('expected a comma');
  }

  scalar(path: string, depth: number): void {
    const start = this.pos;
    const { buf } = this;
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a) break;
      this.pos += 1;
    }
    if (this.pos === start) throw new Error('expected a value');
    if (depth === 1 && path === 'seq') {
      this.seq = Number(Buffer.from(buf.subarray(start, this.pos)).toString('latin1'));
    }
  }

  /** Skips a nested object or array by counting brackets (strings skipped whole). */
  skip(): void {
    const { buf } = this;
    let open = 0;
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (c === quote) {
        this.string();
        continue;
      }
      this.pos += 1;
      if (c === 0x7b || c === 0x5b) open += 1;
      else if (c === 0x7d || c === 0x5d) {
        open -= 1;
        if (open === 0) return;
      }
    }
    throw new Error('unterminated value');
  }
}
