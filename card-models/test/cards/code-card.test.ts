import { describe, expect, it } from 'vitest';
import { codeCard } from '../../src/cards/index.js';
import { failed, succeeded } from './card-blocks.js';
import { toolBlock } from './tool-block.js';

const program = {
  code: 'const r = await tools.bash({ command: "ls" });\nreturn r;',
  description: 'List files',
};

describe('codeCard()', () => {
  const cases: [string, ReturnType<typeof toolBlock>, 'Code' | 'Generic'][] = [
    ['running', toolBlock('run_code', program), 'Code'],
    ['ok', succeeded('run_code', program, '42'), 'Code'],
    ['error keeps the program', failed('run_code', program, 'exception'), 'Code'],
    ['code missing', toolBlock('run_code', { description: 'x' }), 'Generic'],
    ['description missing', toolBlock('run_code', { code: '1' }), 'Generic'],
    ['code not a string', toolBlock('run_code', { code: 1, description: 'x' }), 'Generic'],
    ['arguments not JSON', toolBlock('run_code', 'return 1'), 'Generic'],
    ['orphan', toolBlock('run_code', program, { head: false, result: {} }), 'Generic'],
  ];
  it.each(cases)('%s', (_, block, expected) => {
    const card = codeCard(block);
    expect(card ? 'Code' : 'Generic').toBe(expected);
    if (card) expect(card).toEqual({ kind: 'code', ...program });
  });
});
