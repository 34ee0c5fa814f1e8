import { CompactionReason } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { compactionLabel, type CompactionLabel, type CompactionNode } from '../../src/index.js';

function node(fields: Partial<CompactionNode>): CompactionNode {
  return {
    kind: 'compaction',
    seq: 40,
    time: undefined,
    summary: 'The summary.',
    replacedFromSeq: 0,
    keptFromSeq: 30,
    tokensBefore: 9_000,
    tokensAfter: 1_200,
    contextBudget: 8_000,
    reason: CompactionReason.AUTOMATIC,
    instruction: '',
    model: 'demo',
    ...fields,
  };
}

describe('compactionLabel()', () => {
  it.each<[string, Partial<CompactionNode>, CompactionLabel]>([
    [
      'automatic, keeping the newest events',
      {},
      {
        title: 'Context compacted',
        tokens: '9,000 → 1,200 tokens (budget 8,000)',
        range: 'summarised events 0–29; the model keeps 30 on',
        instruction: '',
      },
    ],
    [
      'requested with an instruction, keeping nothing',
      {
        reason: CompactionReason.REQUESTED,
        instruction: 'keep the API',
        replacedFromSeq: 12,
        keptFromSeq: 40,
      },
      {
        title: 'Context compacted on request',
        tokens: '9,000 → 1,200 tokens (budget 8,000)',
        range: 'summarised events 12–39; nothing kept',
        instruction: '“keep the API”',
      },
    ],
    [
      'one event summarised, no budget recorded',
      { replacedFromSeq: 5, keptFromSeq: 6, contextBudget: 0 },
      {
        title: 'Context compacted',
        tokens: '9,000 → 1,200 tokens',
        range: 'summarised event 5; the model keeps 6 on',
        instruction: '',
      },
    ],
    [
      'nothing summarised',
      { replacedFromSeq: 30, keptFromSeq: 30 },
      {
        title: 'Context compacted',
        tokens: '9,000 → 1,200 tokens (budget 8,000)',
        range: 'nothing summarised; the model keeps 30 on',
        instruction: '',
      },
    ],
  ])('%s', (_name, fields, expected) => {
    expect(compactionLabel(node(fields))).toEqual(expected);
  });
});
