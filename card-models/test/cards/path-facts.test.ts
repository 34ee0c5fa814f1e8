import { describe, expect, it } from 'vitest';
import {
  abbreviateHome,
  displayPath,
  normalizePath,
  resolveWorkdir,
  type PathFacts,
} from '../../src/cards/index.js';

const posix: PathFacts = { cwd: '/home/ada/project', home: '/home/ada' };
const windows: PathFacts = { cwd: 'C:\\Users\\ada\\project', home: 'C:\\Users\\ada' };
const unc: PathFacts = { cwd: '\\\\build\\share\\repo', home: 'C:\\Users\\ada' };
const rootCwd: PathFacts = { cwd: '/', home: '/root' };
const noFacts: PathFacts = { cwd: '', home: '' };

describe('displayPath()', () => {
  const cases: [string, string, PathFacts, string][] = [
    ['inside cwd', '/home/ada/project/src/a.ts', posix, 'src/a.ts'],
    ['cwd itself', '/home/ada/project/', posix, '.'],
    ['relative input stays relative', 'src/./b/../a.ts', posix, 'src/a.ts'],
    ['relative input leaving cwd', '../notes.md', posix, '~/notes.md'],
    ['home itself', '/home/ada', posix, '~'],
    ['under home, outside cwd', '/home/ada/.config/x', posix, '~/.config/x'],
    ['prefix that is not a parent', '/home/ada/project-2/x', posix, '~/project-2/x'],
    ['prefix of home that is not home', '/home/adam/x', posix, '/home/adam/x'],
    ['outside home', '/etc//hosts', posix, '/etc/hosts'],
    ['.. above the root', '/../../etc', posix, '/etc'],
    ['cwd is the root', '/srv/x', rootCwd, 'srv/x'],
    ['no facts', '/a/./b', noFacts, '/a/b'],
    ['empty path', '', posix, ''],
    ['Windows inside cwd', 'C:\\Users\\ada\\project\\src\\a.ts', windows, 'src\\a.ts'],
    ['Windows drive compare ignores case', 'c:\\users\\ADA\\Project\\a.ts', windows, 'a.ts'],
    ['Windows forward slashes', 'C:/Users/ada/project/b/c', windows, 'b\\c'],
    ['Windows under home', 'C:\\Users\\ada\\Desktop', windows, '~\\Desktop'],
    ['Windows other drive', 'd:\\data\\..\\x', windows, 'D:\\x'],
    ['Windows relative', 'src\\x', windows, 'src\\x'],
    ['Windows rooted without drive takes the cwd drive', '\\tmp\\x', windows, 'C:\\tmp\\x'],
    ['UNC inside cwd', '\\\\build\\share\\repo\\a', unc, 'a'],
    ['UNC server and share ignore case', '\\\\BUILD\\Share\\repo\\b\\.\\c', unc, 'b\\c'],
    ['UNC .. stops at the share', '\\\\build\\share\\..\\..\\x', unc, '\\\\build\\share\\x'],
    ['UNC other share', '\\\\build\\other\\x', unc, '\\\\build\\other\\x'],
    ['UNC with forward slashes on Windows', '//build/share/repo/z', unc, 'z'],
    [
      'slash-rooted path in a Windows session is on the cwd drive',
      '/usr/bin',
      windows,
      'C:\\usr\\bin',
    ],
  ];
  it.each(cases)('%s', (_, path, facts, expected) => {
    expect(displayPath(path, facts)).toBe(expected);
  });
});

describe('resolveWorkdir()', () => {
  const cases: [string, string | undefined, string, string][] = [
    ['missing', undefined, '/home/ada/project', '/home/ada/project'],
    ['empty', '', '/home/ada/project/', '/home/ada/project'],
    ['absolute', '/var/./log//', '/home/ada', '/var/log'],
    ['relative', 'src', '/home/ada/project', '/home/ada/project/src'],
    ['relative with ..', '../../x', '/home/ada/project', '/home/x'],
    ['.. past the root', '../../../..', '/a', '/'],
    ['Windows relative', 'out\\bin', 'C:\\src', 'C:\\src\\out\\bin'],
    ['Windows absolute, lower-case drive', 'e:/tmp', 'C:\\src', 'E:\\tmp'],
    ['Windows drive root', 'D:', 'C:\\src', 'D:\\'],
    ['UNC absolute', '\\\\srv\\pub\\.\\a', 'C:\\src', '\\\\srv\\pub\\a'],
    ['relative under UNC', '..\\..\\b', '\\\\srv\\pub\\a', '\\\\srv\\pub\\b'],
    ['relative cwd', 'x', 'rel', 'rel/x'],
  ];
  it.each(cases)('%s', (_, workdir, cwd, expected) => {
    expect(resolveWorkdir(workdir, cwd)).toBe(expected);
  });
});

describe('abbreviateHome()', () => {
  const cases: [string, string, string][] = [
    ['/home/ada', '/home/ada/', '~'],
    ['/home/ada/project', '/home/ada', '~/project'],
    ['/home/adam', '/home/ada', '/home/adam'],
    ['C:\\USERS\\ada\\x', 'C:\\Users\\ada', '~\\x'],
    ['/x', '', '/x'],
  ];
  it.each(cases)('%s under %s', (path, home, expected) => {
    expect(abbreviateHome(path, home)).toBe(expected);
  });
});

describe('normalizePath()', () => {
  const cases: [string, string][] = [
    ['/a//b/./c/..', '/a/b'],
    ['a/../..', '..'],
    ['.', '.'],
    ['', ''],
    ['c:\\A\\.\\b\\', 'C:\\A\\b'],
    ['\\\\s\\sh', '\\\\s\\sh\\'],
  ];
  it.each(cases)('%s', (path, expected) => expect(normalizePath(path)).toBe(expected));
});
