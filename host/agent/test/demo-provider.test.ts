import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalDecision, TurnEndReason } from '@dsh/gen/events';
import { eventTypes } from '@dsh/journal';
import { onAppended } from '@dsh/journal/test-kit';
import { createDemoProvider } from '@dsh/providers';
import { createFirstPartyTools, createToolRuntime, type FirstPartyTools } from '@dsh/tools';
import { fixedTokens, systemPrompt } from '../src/index.js';
import { payloadOf, startHarness, typeName, type Harness } from './harness.js';

let h: Harness;
let tools: FirstPartyTools;
let closePage: () => void = () => {};
afterEach(async () => {
  await h.close();
  await tools.dispose();
  closePage();
});

async function startPage(): Promise<string> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>dsh host</h1>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closePage = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('createDemoProvider()', () => {
  it('tours every first-party tool and yields every event type of SPEC 5 except extensions', async () => {
    const hostUrl = await startPage();
    // As `dsh serve` does: the host's own page is the one loopback URL web_fetch may reach.
    tools = createFirstPartyTools({
      homeDir: '/nonexistent-home',
      trustedUrls: () => [new URL(hostUrl).href],
    });
    // A budget the tour of this small directory passes, so the host compacts it on its own.
    const definitions = createToolRuntime(tools.tools).definitions();
    h = await startHarness({
      tools: tools.tools,
      provider: createDemoProvider({ hostUrl, chunkDelayMs: 0 }),
      model: 'demo',
      contextBudget: (cwd) => fixedTokens(systemPrompt(cwd), definitions) + 700,
    });
    await writeFile(join(h.cwd, 'README.md'), '# A project\n\nThe demo reads this file.\n');
    let steered = false;
    await onAppended(h.journal, (events) => {
      for (const event of events) {
        const p = event.payload;
        if (p.case === 'approvalRequested') {
          if (!steered) {
            steered = true;
            void h.prompt('look at the README too', 'steer');
          }
          void h.runtime.respond(h.sessionId, {
            case: 'approval',
            value: {
              $typeName: 'dsh.session.v1.ApprovalResponse',
              approvalId: p.value.approvalId,
              decision: ApprovalDecision.ALLOW,
            },
          });
        } else if (p.case === 'questionRequested') {
          void h.runtime.respond(h.sessionId, {
            case: 'question',
            value: {
              $typeName: 'dsh.session.v1.QuestionResponse',
              questionId: p.value.questionId,
              answers: [{ $typeName: 'dsh.session.v1.Answer', values: ['Yes'] }],
              cancelled: false,
            },
          });
        }
      }
    });
    await h.prompt('demo');
    await h.runtime.idle(h.sessionId);
    await h.prompt('now fail please');
    await h.runtime.idle(h.sessionId);

    const events = await h.events();
    const seen = new Set(events.map(typeName));
    // Renames and archiving are the session service's events, never the agent's.
    const hostOnly = new Set(['session/renamed', 'session/archived']);
    const agentTypes = [...Object.values(eventTypes)]
      .map((t) => t.type)
      .filter((t) => !hostOnly.has(t));
    expect(agentTypes.filter((t) => !seen.has(t))).toEqual([]);
    const called = new Set(
      events.flatMap((e) => (e.payload.case === 'toolCall' ? [e.payload.value.name] : [])),
    );
    expect([...called].sort()).toEqual([
      'ask_user',
      'bash',
      'edit',
      'glob',
      'grep',
      'read',
      'run_code',
      'skill',
      'str_replace_editor',
      'terminal_send',
      'todo_write',
      'web_fetch',
      'web_search',
      'write',
    ]);
    // The tour went on from where it was after each compaction: it never started again.
    const listings = events.filter(
      (e) => e.payload.case === 'toolCall' && e.payload.value.arguments.includes('ls -la'),
    );
    expect(listings).toHaveLength(1);
    const compactions = events.filter((e) => e.payload.case === 'contextCompaction');
    expect(compactions.length).toBeGreaterThan(0);
    for (const compaction of compactions) {
      expect(payloadOf(compaction, 'contextCompaction').summary).toContain(
        'I am the demo model, a script: this summary is mechanical',
      );
    }
    const ends = events.flatMap((e) =>
      e.payload.case === 'turnEnd' ? [e.payload.value.reason] : [],
    );
    expect(ends).toEqual([TurnEndReason.COMPLETED, TurnEndReason.ERROR]);
    const errors = events
      .filter((e) => e.payload.case === 'toolResult' && e.payload.value.isError)
      .map((e) => payloadOf(e, 'toolResult').callId);
    const webSearch = events.find(
      (e) => e.payload.case === 'toolCall' && e.payload.value.name === 'web_search',
    );
    expect(errors).toEqual([payloadOf(webSearch, 'toolCall').callId]);
    const firstText = events.find((e) => e.payload.case === 'assistantMessage');
    expect(JSON.stringify(payloadOf(firstText, 'assistantMessage').content)).toContain(
      "I am dsh's offline demo model, a script, not an AI",
    );
    expect(await readFile(join(h.cwd, '.dsh-demo/notes.md'), 'utf8')).toContain('an edited note');
    const final = events.filter((e) => e.payload.case === 'assistantMessage').at(-1);
    expect(JSON.stringify(payloadOf(final, 'assistantMessage').content)).toContain(
      'You answered my question with',
    );
  });
});
