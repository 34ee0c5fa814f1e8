import { describe, expect, it } from 'vitest';
import { langFromPath } from '../../src/contract/index.js';
import { diffCard } from '../../src/index.js';
import { toolBlock } from '../cards/tool-block.js';

describe('langFromPath()', () => {
  it.each([
    ['src/app.ts', 'typescript'],
    ['/abs/path/Component.TSX', 'typescript'],
    ['C:\\work\\tool.py', 'python'],
    ['Dockerfile', 'dockerfile'],
    ['deploy/Makefile', 'makefile'],
    ['~/.bashrc', 'bash'],
    ['notes.txt', ''],
    ['.gitignore', ''],
    ['no-extension', ''],
    ['archive.tar.gz', ''],
    ['', ''],
  ])('%s -> %s', (path, lang) => {
    expect(langFromPath(path)).toBe(lang);
  });

  it('gives the diff card the language of its file', () => {
    const block = toolBlock('write', { file_path: 'src/a.rs', content: 'fn main() {}\n' });
    expect(diffCard(block, { cwd: '/w', home: '/h' })?.lang).toBe('rust');
  });
});
