import { createConversation } from '@dsh/card-models';
import { events, generateLongSession, scenarios } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assembleLive, assemblePaged, findTool, shownTools } from './conversation-helpers.js';

const sessions = [
  ...scenarios.map((scenario) => ({ name: scenario.name, list: events(scenario.payloads) })),
  {
    name: 'generated 3000 events',
    list: events([...generateLongSession({ events: 3000, seed: 7 })]),
  },
];

describe('createConversation() replay', () => {
  it.each(sessions)('$name: all at once == one by one == pages newest first', ({ list }) => {
    const whole = createConversation().apply({ kind: 'replace', events: list });
    expect(assembleLive(list)).toEqual(whole);
    const sizes = list.length <= 300 ? [1, 7, 50] : [97, 500];
    for (const size of sizes) expect(assemblePaged(list, size)).toEqual(whole);
  });

  it.each(scenarios)('$name: declared orphans and open calls show as such', (scenario) => {
    const snapshot = createConversation().apply({
      kind: 'replace',
      events: events(scenario.payloads),
    });
    for (const id of scenario.expect.orphanResults ?? []) {
      expect(findTool(snapshot, id)?.call).toBeNull();
    }
    for (const id of scenario.expect.openCalls ?? []) {
      expect(['running', 'stopped']).toContain(findTool(snapshot, id)?.status);
    }
    const shown = shownTools(snapshot);
    expect(shown.every((tool) => tool.parentCallId === undefined)).toBe(true);
  });
});
