import { createCardCache, createConversation } from '@dsh/card-models';
import { events, scenarioByName } from '@dsh/fixtures';
import { createTuiRegistry } from './cards/tui-registry.js';
import { createConversationRenderer } from './conversation/render-conversation.js';
import { plainText } from './text/styled-line.js';
const s = scenarioByName(process.argv[2] ?? 'showcase')!;
const snap = createConversation().apply({ kind: 'replace', events: events(s.payloads) });
const r = createConversationRenderer({
  registry: createTuiRegistry(),
  card: { facts: { cwd: s.cwd, home: s.home }, cards: createCardCache() },
});
for (const item of r.render(snap, Number(process.argv[3] ?? 56)))
  for (const l of item.lines) console.log(plainText(l));
