import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Characters of command output kept in model-visible content. */
export const outputLimitChars = 30_000;

/**
 * Collects a command's output in arrival order. Within the limit it stays in memory;
 * past it, everything (from the first byte) goes to a spill file and only the head
 * is kept for the content.
 */
export class OutputCollector {
  private head = '';
  private totalBytes = 0;
  private spill: WriteStream | undefined;
  private spillPath: string | undefined;
  private readonly decoders = new Map<string, StringDecoder>();

  /** `onText` sees every decoded piece in arrival order (live output). */
  constructor(
    private readonly spillFile: () => string,
    private readonly limitChars = outputLimitChars,
    private readonly onText?: (text: string) => void,
  ) {}

  /** Adds a chunk from `stream` (one UTF-8 decoder per stream keeps split characters whole). */
  push(stream: string, chunk: Buffer): void {
    let decoder = this.decoders.get(stream);
    if (!decoder) this.decoders.set(stream, (decoder = new StringDecoder('utf8')));
    this.totalBytes += chunk.length;
    this.append(decoder.write(chunk));
  }

  /** Adds already decoded text. */
  pushText(text: string): void {
    this.totalBytes += Buffer.byteLength(text);
    this.append(text);
  }

  /** Closes the spill file; resolves with the head, and the spill file when one was written. */
  async finish(): Promise<{ text: string; spill?: { path: string; totalBytes: number } }> {
    for (const decoder of this.decoders.values()) this.append(decoder.end());
    if (!this.spill || !this.spillPath) return { text: this.head };
    const spill = this.spill;
    await new Promise<void>((resolve) => spill.end(resolve));
    return { text: this.head, spill: { path: this.spillPath, totalBytes: this.totalBytes } };
  }

  private append(text: string): void {
    if (text === '') return;
    this.onText?.(text);
    if (this.spill) {
      this.spill.write(text);
      return;
    }
    if (this.head.length + text.length <= this.limitChars) {
      this.head += text;
      return;
    }
    this.spillPath = this.spillFile();
    this.spill = createWriteStream(this.spillPath);
    this.spill.on('error', () => undefined);
    this.spill.write(this.head + text);
    this.head = (this.head + text).slice(0, this.limitChars);
  }
}

/** A file path in `spillDir` for `callId`'s output (the folder is created). */
export function spillPathFor(spillDir: string, callId: string, suffix = 'output.txt'): string {
  mkdirSync(spillDir, { recursive: true });
  const safe = callId.replace(/[^A-Za-z0-9._-]/g, '_') || 'call';
  return join(spillDir, `${safe}-${Date.now().toString(36)}-${suffix}`);
}
