import { describe, expect, it } from 'vitest';
import { runnableModels } from '../src/runnable-models.js';

const openai = (model: string) =>
  ({ kind: 'openai', baseUrl: 'https://api.example.com/v1', model, apiKey: 'k' }) as const;

describe('runnableModels()', () => {
  it.each([
    {
      why: 'a demo host runs only demo',
      model: { kind: 'demo', model: 'demo' } as const,
      named: ['x'],
      want: ['demo'],
    },
    {
      why: 'the default first, then the configured ones, then demo',
      model: openai('deepseek-chat'),
      named: ['deepseek-reasoner', 'deepseek-chat'],
      want: ['deepseek-chat', 'deepseek-reasoner', 'demo'],
    },
    {
      why: 'no models object: the default and demo',
      model: openai('gpt-x'),
      named: [],
      want: ['gpt-x', 'demo'],
    },
  ])('$why', ({ model, named, want }) => {
    expect(runnableModels(model, named)).toEqual(want);
  });
});
