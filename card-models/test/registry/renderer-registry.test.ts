import { describe, expect, it } from 'vitest';
import { createRendererRegistry } from '../../src/index.js';

describe('createRendererRegistry()', () => {
  const cases: [string, string, string][] = [
    ['registered tool', 'bash', 'terminal'],
    ['second registered tool', 'read', 'read'],
    ['unknown tool', 'deploy', 'generic'],
    ['orphan (empty name)', '', 'generic'],
    ['prototype key', 'constructor', 'generic'],
  ];
  it.each(cases)('resolves %s', (_, name, expected) => {
    const registry = createRendererRegistry('generic');
    registry.register('bash', 'terminal');
    registry.register('read', 'read');
    expect(registry.resolve(name)).toBe(expected);
  });

  it('throws when a name is registered twice, naming the tool', () => {
    const registry = createRendererRegistry('generic');
    registry.register('bash', 'a');
    expect(() => registry.register('bash', 'b')).toThrowError(/"bash" is already registered/);
    expect(registry.resolve('bash')).toBe('a');
  });

  it('lists registered names in order', () => {
    const registry = createRendererRegistry(0);
    registry.register('b', 1);
    registry.register('a', 2);
    expect(registry.names()).toEqual(['b', 'a']);
    expect(registry.has('a')).toBe(true);
    expect(registry.has('c')).toBe(false);
  });

  it('keeps registries apart', () => {
    const web = createRendererRegistry('g');
    const tui = createRendererRegistry('g');
    web.register('bash', 'w');
    expect(tui.resolve('bash')).toBe('g');
  });
});
