import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { demoContextBudget } from './context-budget.js';

/** One scripted step of the demo model: what it says, then the tools it calls. */
export interface DemoStep {
  readonly reasoning?: string;
  readonly text: string;
  readonly calls: readonly { name: string; args: Record<string, unknown> }[];
}

/** What the script adapts to: the session's directory and the host's own URL. */
export interface DemoFacts {
  readonly cwd: string;
  readonly prompt: string;
  readonly hostUrl: string | undefined;
}

const intro =
  "I am dsh's offline demo model, a script, not an AI: I do not understand your prompt and " +
  'my answers are fixed. I will walk through every first-party tool on this working ' +
  'directory, one step at a time, so you can see each card. Shell commands wait for your approval. ' +
  `dsh gives me a deliberately tiny context budget (${demoContextBudget.toLocaleString('en-US')} tokens unless "models.demo.contextBudget" ` +
  'says otherwise), so the host compacts this conversation once it outgrows that: one tour ' +
  'nearly fills it and a second prompt passes it (watch for the divider), or type /compact ' +
  'to ask for one.';

/** The tour: every first-party tool, on the real working directory, in a fixed order. */
export function demoSteps(facts: DemoFacts): DemoStep[] {
  const sample = sampleFile(facts.cwd);
  const notes = '.dsh-demo/notes.md';
  const steps: DemoStep[] = [
    {
      reasoning: `The prompt was ${JSON.stringify(facts.prompt.slice(0, 80))}. I am a script, so I run my fixed tour.`,
      text: `${intro}\n\nFirst, a listing of the directory:`,
      calls: [
        { name: 'bash', args: { command: 'ls -la', description: 'List the working directory' } },
      ],
    },
    {
      text: 'A command that prints colours and redraws a progress line; its output shows while it runs:',
      calls: [
        {
          name: 'bash',
          args: {
            command:
              "printf '\\033[1;32mgreen\\033[0m \\033[1;34mblue\\033[0m \\033[1;31mred\\033[0m\\n'; " +
              "for i in $(seq 1 12); do printf '\\rprogress %d/12' $i; sleep 0.25; done; printf '\\n'",
            description: 'Print coloured output',
          },
        },
      ],
    },
    {
      text: 'A persistent shell keeps its state between calls; terminal_send types into it:',
      calls: [
        {
          name: 'bash',
          args: { command: 'export DEMO_GREETING=hello && echo "set in $(pwd)"', session: 'demo' },
        },
        {
          name: 'terminal_send',
          args: { session: 'demo', input: 'echo "$DEMO_GREETING from terminal_send"\n' },
        },
      ],
    },
    {
      text: 'Finding files by name and by content:',
      calls: [
        { name: 'glob', args: { pattern: '*' } },
        { name: 'grep', args: { pattern: 'the', ignore_case: true, max_results: 10 } },
      ],
    },
    {
      text: 'Writing a scratch file under .dsh-demo/ (nothing else in your directory is changed):',
      calls: [
        {
          name: 'write',
          args: {
            file_path: notes,
            content:
              '# dsh demo notes\n\nThis file is a draft written by the demo model.\nIt is safe to delete.\n',
          },
        },
      ],
    },
    {
      text: sample ? `Reading a real file, ${sample}:` : 'Reading the scratch file back:',
      calls: [{ name: 'read', args: { file_path: sample ?? notes, limit: 40 } }],
    },
    {
      text: 'Editing the scratch file, then creating and changing a second one with str_replace_editor:',
      calls: [
        {
          name: 'edit',
          args: { file_path: notes, old_string: 'a draft', new_string: 'an edited note' },
        },
        {
          name: 'str_replace_editor',
          args: {
            command: 'create',
            path: '.dsh-demo/editor.txt',
            file_text: 'alpha\nbeta\ngamma\n',
          },
        },
        {
          name: 'str_replace_editor',
          args: {
            command: 'str_replace',
            path: '.dsh-demo/editor.txt',
            old_str: 'beta',
            new_str: 'BETA',
          },
        },
      ],
    },
    {
      text: 'Keeping a todo list of the tour:',
      calls: [
        {
          name: 'todo_write',
          args: {
            todos: [
              { content: 'Show shells, search and files', status: 'completed' },
              { content: 'Show web tools and questions', status: 'in_progress' },
              { content: 'Show skills and code mode', status: 'pending' },
            ],
          },
        },
      ],
    },
    {
      text: 'Searching the web (this needs a configured search provider, so it may fail, which is fine):',
      calls: [{ name: 'web_search', args: { query: 'dsh coding agent host' } }],
    },
    ...(facts.hostUrl
      ? [
          {
            text: 'Fetching a page: the status page of this host.',
            calls: [{ name: 'web_fetch', args: { url: facts.hostUrl } }],
          },
        ]
      : []),
    {
      text: 'Asking you a question:',
      calls: [
        {
          name: 'ask_user',
          args: {
            questions: [
              {
                question: 'Is this tour useful?',
                header: 'Demo',
                options: [{ label: 'Yes', description: 'Keep going' }, { label: 'Not really' }],
              },
            ],
          },
        },
      ],
    },
    {
      text: 'Installing a small skill in .dsh/skills/ and loading it:',
      calls: [
        {
          name: 'write',
          args: {
            file_path: '.dsh/skills/dsh-demo.md',
            content:
              '# dsh-demo skill\n\nA skill is markdown instructions the agent loads on demand.\n',
          },
        },
        { name: 'skill', args: { name: 'dsh-demo', args: 'from the demo model' } },
      ],
    },
    {
      text: 'Code mode: a small program that calls tools itself (each call shows nested under it):',
      calls: [
        {
          name: 'run_code',
          args: {
            description: 'Count the top-level entries and read the scratch file',
            code: [
              "const listing = await tools.glob({ pattern: '*' });",
              "const notes = await tools.read({ file_path: '.dsh-demo/notes.md' });",
              "return { entries: listing.split('\\n').length, notesChars: notes.length };",
            ].join('\n'),
          },
        },
      ],
    },
  ];
  return steps;
}

/** The closing message of the tour. */
export function demoSummary(answer: string | undefined): string {
  const said = answer === undefined ? undefined : (/^A: (.+)$/m.exec(answer)?.[1] ?? answer.trim());
  const heard = said ? `You answered my question with: ${said}\n\n` : '';
  return (
    `${heard}That was every first-party tool: bash (standard and persistent), terminal_send, glob, grep, ` +
    'write, read, edit, str_replace_editor, todo_write, web_search, web_fetch, ask_user, skill and run_code. ' +
    'The scratch files are in .dsh-demo/ and .dsh/skills/dsh-demo.md; delete them when you like. ' +
    'To talk to a real model, set DSH_API_KEY (and DSH_BASE_URL / DSH_MODEL) and start a new session.'
  );
}

/** A small text file at the top of `cwd` worth reading, or undefined. */
function sampleFile(cwd: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(cwd).sort();
  } catch {
    return undefined;
  }
  const preferred = ['README.md', 'package.json', 'README', 'README.txt'];
  const candidates = [
    ...preferred.filter((n) => names.includes(n)),
    ...names.filter((n) => /\.(md|txt|json|ts|js|py)$/.test(n)),
  ];
  for (const name of candidates) {
    try {
      const stat = statSync(join(cwd, name));
      if (stat.isFile() && stat.size > 0 && stat.size < 200_000) return name;
    } catch {
      // unreadable: try the next one
    }
  }
  return undefined;
}
