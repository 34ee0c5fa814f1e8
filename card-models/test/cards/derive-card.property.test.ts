import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { ToolErrorSchema } from '@dsh/gen/events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCardCache, deriveCard, terminalLines, type Card } from '../../src/cards/index.js';
import { backgroundAck, exitMarker, signalMarker, spillNotice } from '../../src/contract/index.js';
import type { ToolCallBlock, ToolCallStatus } from '../../src/conversation/types.js';

const names = [
  'bash',
  'pwsh',
  'terminal_send',
  'read',
  'write',
  'edit',
  'str_replace_editor',
  'grep',
  'glob',
  'web_search',
  'web_fetch',
  'todo_write',
  'ask_user',
  'skill',
  'run_code',
  '',
];
const keys = [
  'command',
  'description',
  'workdir',
  'background',
  'timeout_ms',
  'session',
  'input',
  'file_path',
  'path',
  'content',
  'old_string',
  'new_string',
  'pattern',
  'query',
  'queries',
  'url',
  'todos',
  'questions',
  'name',
  'code',
  'offset',
  'limit',
];

const jsonValue = fc.oneof(
  fc.string(),
  fc.constantFrom('C:\\x\\..\\y', '\\\\srv\\share', '../..', '/', '~', 'completed', 'pending'),
  fc.jsonValue({ maxDepth: 3 }),
);
const argsRaw = fc.oneof(
  fc.dictionary(fc.constantFrom(...keys), jsonValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.json({ maxDepth: 3 }),
  fc.string(),
);
/** Characters that make up terminal output, escape sequences and wide characters included. */
const terminalChars = [...'ab 019;[]?mHJKABCDhlPq\\\r\n\t\b\x07\x1b\u009b中😀'];
const outputText = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...terminalChars), maxLength: 80 }),
  fc.tuple(fc.string(), fc.integer()).map(([t, n]) => `${t}\n${exitMarker(n)}`),
  fc.string().map((t) => `${t}\n${signalMarker('SIGKILL')}`),
  fc.string().map((t) => `${t}\n${spillNotice('/tmp/x', 5)}`),
  fc.constant(backgroundAck({ jobId: 'j', pid: 1, outputPath: '/o' })),
);
const content = fc.array(
  outputText.map((t) =>
    create(ContentBlockSchema, { block: { case: 'text', value: { text: t } } }),
  ),
  { maxLength: 3 },
);
const result = fc.record({
  content,
  isError: fc.boolean(),
  error: fc.option(
    fc
      .constantFrom('interrupted', 'cancelled', 'denied', '')
      .map((code) => create(ToolErrorSchema, { name: 'E', code, message: code })),
    { nil: undefined },
  ),
  metaJson: fc.oneof(fc.constant(''), fc.json({ maxDepth: 4 }), fc.string()),
  seq: fc.nat(),
});

/** Blocks with code-dispatch children nested up to `depth` levels. */
function blockAt(depth: number): fc.Arbitrary<ToolCallBlock> {
  return fc
    .record({
      callId: fc.string({ maxLength: 8 }),
      name: fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })),
      argsRaw,
      parentCallId: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
      status: fc.constantFrom<ToolCallStatus>('running', 'ok', 'error', 'stopped'),
      hasHead: fc.boolean(),
      result: fc.option(result, { nil: undefined }),
      subCalls: depth === 0 ? fc.constant([]) : fc.array(blockAt(depth - 1), { maxLength: 2 }),
    })
    .map((r) => ({
      callId: r.callId,
      name: r.name,
      argsRaw: r.argsRaw,
      parentCallId: r.parentCallId,
      turn: 1,
      step: 0,
      seq: 1,
      startTime: undefined,
      endTime: undefined,
      status: r.status,
      call: r.hasHead ? { seq: 1 } : null,
      result: r.result,
      subCalls: r.subCalls,
    }));
}
const block = blockAt(2);

function visit(card: Card, each: (card: Card) => void): void {
  each(card);
  for (const sub of card.subCalls) visit(sub, each);
}

describe('deriveCard() on arbitrary blocks', () => {
  it('never throws and always yields a card with a row and a body', () => {
    const cache = createCardCache();
    fc.assert(
      fc.property(
        block,
        fc.constantFrom({ cwd: '/home/a/p', home: '/home/a' }, { cwd: 'C:\\p', home: 'C:\\' }),
        (b, facts) => {
          const card = deriveCard(b, facts);
          expect(typeof card.row.title).toBe('string');
          expect(typeof card.body.kind).toBe('string');
          expect(card.subCalls).toHaveLength(b.subCalls.length);
          expect(cache.card(b, facts)).toEqual(card);
          visit(card, (c) => {
            if (c.body.kind === 'terminal') terminalLines(c.body, { cols: 40 });
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('terminalLines() on arbitrary output', () => {
  // eslint-disable-next-line no-control-regex
  const controlChars = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
  it('replays any output without throwing or leaking control characters', () => {
    fc.assert(
      fc.property(outputText, fc.integer({ min: 1, max: 200 }), (output, cols) => {
        const b: ToolCallBlock = {
          callId: 'c',
          name: 'bash',
          argsRaw: '{"command":"x"}',
          parentCallId: undefined,
          turn: 1,
          step: 0,
          seq: 1,
          startTime: undefined,
          endTime: undefined,
          status: 'ok',
          call: { seq: 1 },
          result: {
            content: [
              create(ContentBlockSchema, { block: { case: 'text', value: { text: output } } }),
            ],
            isError: false,
            error: undefined,
            metaJson: '',
            seq: 2,
          },
          subCalls: [],
        };
        const card = deriveCard(b, { cwd: '/', home: '/root' });
        if (card.body.kind !== 'terminal') return;
        for (const line of terminalLines(card.body, { cols })) {
          expect(line.text).not.toMatch(controlChars);
          for (const span of line.spans) {
            expect(span.start).toBeGreaterThanOrEqual(0);
            expect(span.end).toBeLessThanOrEqual(line.text.length);
            expect(span.start).toBeLessThan(span.end);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
