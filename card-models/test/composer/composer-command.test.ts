import { describe, expect, it } from 'vitest';
import { composerCommand, type ComposerCommand } from '../../src/index.js';

describe('composerCommand()', () => {
  it.each<[string, ComposerCommand]>([
    ['/compact', { kind: 'compact', instruction: '' }],
    ['  /compact  ', { kind: 'compact', instruction: '' }],
    [
      '/compact keep the API design decisions',
      { kind: 'compact', instruction: 'keep the API design decisions' },
    ],
    ['/compact\nkeep the test names\n', { kind: 'compact', instruction: 'keep the test names' }],
    ['/compaction is what?', { kind: 'prompt', text: '/compaction is what?' }],
    ['/usr/bin is slow', { kind: 'prompt', text: '/usr/bin is slow' }],
    ['please /compact', { kind: 'prompt', text: 'please /compact' }],
    [' hello ', { kind: 'prompt', text: 'hello' }],
  ])('%j', (text, expected) => {
    expect(composerCommand(text)).toEqual(expected);
  });
});
