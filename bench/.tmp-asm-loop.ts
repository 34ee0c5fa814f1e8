import { createConversation } from '@dsh/card-models';
import { events, generateLongSession } from '@dsh/fixtures';
const list = events([...generateLongSession({ events: 100_000, seed: 7 })]);
for (let r = 0; r < 3; r++) {
  const c = createConversation();
  const t = performance.now();
  for (const e of list) c.apply({ kind: 'append', events: [e] });
  console.log(performance.now() - t);
}
