import { writeFile } from 'node:fs/promises';
import { create } from '@bufbuild/protobuf';
import { spillNotice } from '@dsh/card-models/contract';
import { StreamChunkSchema, type ContentBlock, type StreamChunk } from '@dsh/gen/content';
import { SessionEventSchema } from '@dsh/gen/events';
import { encodeEventLine, maxEventLineBytes, type EventPayload } from '@dsh/journal';
import { spillPathFor } from '@dsh/tools';

/** Characters of a spilled text kept in the event, before the spill notice. */
export const keptTextChars = 128 * 1024;

/**
 * Makes events whose journal line would pass the line limit fit: every text or
 * reasoning field longer than `keptTextChars` (in content blocks, stream deltas and
 * final blocks) is written whole to a file under `spillDir` and cut to its head plus a
 * spill notice naming that file, the way shell output spills. Events that fit, and
 * fields that carry no text (tool-call arguments stay the model's raw text), are kept
 * unchanged; an event that still does not fit is refused by the journal.
 */
export async function fitPayloads(
  payloads: readonly EventPayload[],
  spillDir: string,
): Promise<EventPayload[]> {
  return Promise.all(
    payloads.map((payload) =>
      lineBytes(payload) > maxEventLineBytes ? fitPayload(payload, spillDir) : payload,
    ),
  );
}

function lineBytes(payload: EventPayload): number {
  return Buffer.byteLength(encodeEventLine(create(SessionEventSchema, { seq: 0, payload })));
}

async function fitPayload(payload: EventPayload, spillDir: string): Promise<EventPayload> {
  const cut = (text: string, name: string) => cutText(text, spillDir, name);
  const blocks = (content: ContentBlock[], name: string) => fitBlocks(content, (t) => cut(t, name));
  switch (payload.case) {
    case 'userMessage':
    case 'steeringMessage':
    case 'contextMessage':
      return {
        ...payload,
        value: { ...payload.value, content: await blocks(payload.value.content, 'message') },
      } as EventPayload;
    case 'assistantMessage': {
      const name = `assistant-${payload.value.turn}-${payload.value.step}`;
      const content = await blocks(payload.value.content, name);
      return { case: payload.case, value: { ...payload.value, content } };
    }
    case 'toolResult': {
      const content = await blocks(payload.value.content, payload.value.callId);
      return { case: payload.case, value: { ...payload.value, content } };
    }
    case 'codeDispatch': {
      const content = await blocks(payload.value.content, payload.value.callId);
      return { case: payload.case, value: { ...payload.value, content } };
    }
    case 'assistantChunk': {
      const { chunk, turn, step } = payload.value;
      if (chunk === undefined) return payload;
      const fitted = await fitChunk(chunk, (t) => cut(t, `assistant-${turn}-${step}-chunk`));
      return { case: payload.case, value: { ...payload.value, chunk: fitted } };
    }
    default:
      return payload;
  }
}

async function fitBlocks(
  content: ContentBlock[],
  cut: (text: string) => Promise<string>,
): Promise<ContentBlock[]> {
  return Promise.all(content.map((block) => fitBlock(block, cut)));
}

async function fitBlock(
  block: ContentBlock,
  cut: (text: string) => Promise<string>,
): Promise<ContentBlock> {
  const inner = block.block;
  if (inner.case !== 'text' && inner.case !== 'reasoning') return block;
  if (inner.value.text.length <= keptTextChars) return block;
  const text = await cut(inner.value.text);
  const value = { ...inner.value, text };
  return { ...block, block: { case: inner.case, value } as ContentBlock['block'] };
}

async function fitChunk(
  chunk: StreamChunk,
  cut: (text: string) => Promise<string>,
): Promise<StreamChunk> {
  const inner = chunk.chunk;
  switch (inner.case) {
    case 'textDelta':
    case 'reasoningDelta': {
      if (inner.value.text.length <= keptTextChars) return chunk;
      const value = { ...inner.value, text: await cut(inner.value.text) };
      return create(StreamChunkSchema, {
        chunk: { case: inner.case, value } as StreamChunk['chunk'],
      });
    }
    case 'blockEnd': {
      const final = inner.value.block;
      if (final === undefined) return chunk;
      const value = { ...inner.value, block: await fitBlock(final, cut) };
      return create(StreamChunkSchema, { chunk: { case: 'blockEnd', value } });
    }
    default:
      return chunk;
  }
}

/** The head of `text` and a spill notice naming the file that holds all of it. */
async function cutText(text: string, spillDir: string, name: string): Promise<string> {
  const totalBytes = Buffer.byteLength(text);
  const head = text.slice(0, keptTextChars);
  try {
    const path = spillPathFor(spillDir, name, 'event.txt');
    await writeFile(path, text);
    return `${head}\n${spillNotice(path, totalBytes)}`;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `${head}\n[output truncated: ${totalBytes} bytes in total; the rest could not be saved: ${why}]`;
  }
}
