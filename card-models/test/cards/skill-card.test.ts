import { describe, expect, it } from 'vitest';
import { skillCard } from '../../src/cards/index.js';
import { failed, succeeded } from './card-blocks.js';
import { asStopped, asSubCall, toolBlock } from './tool-block.js';

describe('skillCard()', () => {
  const cases: [string, ReturnType<typeof toolBlock>, string][] = [
    ['running', toolBlock('skill', { name: 'pdf', args: 'x.pdf' }), 'pdf running'],
    ['ok', succeeded('skill', { name: 'pdf' }, 'done'), 'pdf ok'],
    ['error keeps the skill row', failed('skill', { name: 'pdf' }, 'not_found'), 'pdf error'],
    ['stopped', asStopped(toolBlock('skill', { name: 'pdf' })), 'pdf stopped'],
    ['sub-call', asSubCall(toolBlock('skill', { name: 'pdf' })), 'pdf running'],
    ['name missing', toolBlock('skill', { args: 'x' }), 'Generic'],
    ['name blank', toolBlock('skill', { name: ' ' }), 'Generic'],
    ['name not a string', toolBlock('skill', { name: 3 }), 'Generic'],
    ['arguments not JSON', toolBlock('skill', 'pdf'), 'Generic'],
    ['orphan', toolBlock('skill', { name: 'pdf' }, { head: false, result: {} }), 'Generic'],
  ];
  it.each(cases)('%s', (_, block, expected) => {
    const card = skillCard(block);
    expect(card ? `${card.name} ${card.state}` : 'Generic').toBe(expected);
  });
});
