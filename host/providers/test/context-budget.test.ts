import { describe, expect, it } from 'vitest';
import { contextBudgetFor, conservativeContextWindow, demoContextBudget } from '../src/index.js';

describe('contextBudgetFor()', () => {
  it.each<[string, string, number | undefined, ReturnType<typeof contextBudgetFor>]>([
    ['a configured budget wins', 'gpt-4o', 50_000, { budget: 50_000, source: 'configured' }],
    [
      'the demo model is tiny',
      'demo',
      undefined,
      { budget: demoContextBudget, source: 'demo model' },
    ],
    [
      'a known model less room for the answer',
      'gpt-4o',
      undefined,
      { budget: 111_616, source: 'known model' },
    ],
    [
      'the longest prefix wins',
      'gpt-4-turbo-2024-04-09',
      undefined,
      { budget: 111_616, source: 'known model' },
    ],
    [
      'a short window keeps three quarters',
      'gpt-4-0613',
      undefined,
      { budget: 6_144, source: 'known model' },
    ],
    [
      'a vendor prefix is ignored',
      'openai/gpt-4o-mini',
      undefined,
      { budget: 111_616, source: 'known model' },
    ],
    [
      'names match in any case',
      'DeepSeek-Chat',
      undefined,
      { budget: 114_688, source: 'known model' },
    ],
    [
      'a local tag after the name',
      'llama3.1:8b',
      undefined,
      { budget: 114_688, source: 'known model' },
    ],
    ['the older llama', 'llama3:8b', undefined, { budget: 6_144, source: 'known model' }],
    [
      'an unknown model gets the conservative window',
      'my-local-model',
      undefined,
      { budget: conservativeContextWindow * 0.75, source: 'conservative default' },
    ],
  ])('%s (%s)', (_name, model, configured, expected) => {
    expect(contextBudgetFor(model, configured)).toEqual(expected);
  });

  it('leaves every known window at most 16,384 tokens for the answer', () => {
    expect(contextBudgetFor('claude-sonnet-4')).toEqual({ budget: 183_616, source: 'known model' });
    expect(contextBudgetFor('gpt-4.1').budget).toBe(1_047_576 - 16_384);
  });
});
