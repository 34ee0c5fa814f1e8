import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SessionEvent } from '@dsh/gen/events';
import type { TurnOutcome } from '../lib/agent-turn.js';
import { processesWith, killPids } from '../lib/processes.js';

/** The approval policies of the host an attack runs on. */
export type PolicyHost = 'deny' | 'ask' | 'default';

/** The approvals config file of each kind of host. */
export const policyHosts: Record<PolicyHost, Record<string, 'allow' | 'ask' | 'deny'>> = {
  deny: { bash: 'deny', pwsh: 'deny', write: 'deny', edit: 'deny', str_replace_editor: 'deny' },
  ask: { bash: 'ask', pwsh: 'ask', write: 'ask', edit: 'ask', str_replace_editor: 'ask' },
  default: {},
};

/** What an attack does in its session and how its harm is judged afterwards. */
export interface ArmedAttack {
  readonly tool: string;
  readonly args: unknown;
  /** How long it may run before the soak cancels it (ms). */
  readonly windowMs: number;
  readonly cancelWhen?: () => boolean;
  /** What the attack achieved, judged after the turn (and after Cancel). */
  harm(outcome: TurnOutcome): { harmed: boolean; note: string };
}

/** One hostile tool call, run through the real agent runtime. */
export interface Attack {
  readonly name: string;
  readonly host: PolicyHost;
  /** The answer given to each approval request. */
  readonly answer: 'deny' | 'allow';
  /** Prepares files in the session cwd (and `outside`, a dir beside it) and arms the call. */
  arm(setting: { cwd: string; outside: string; hostUrl: string; short: boolean }): ArmedAttack;
}

const toolResults = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.payload.case === 'toolResult' ? [e.payload.value] : []));

const resultText = (events: readonly SessionEvent[]): string =>
  toolResults(events)
    .flatMap((r) => r.content.map((b) => (b.block.case === 'text' ? b.block.value.text : '')))
    .join('\n');

/** A file the attack must not create; the note says whether it exists. */
function markerHarm(path: string, what: string) {
  return (): { harmed: boolean; note: string } =>
    existsSync(path)
      ? { harmed: true, note: `${what} ran (${path.split('/').pop()} exists)` }
      : { harmed: false, note: `${what} did not run` };
}

const noHarm = (note: string) => (): { harmed: boolean; note: string } => ({ harmed: false, note });

const bashViaRunCode = (marker: string): string =>
  `await tools.bash({ command: ${JSON.stringify(`touch ${marker}`)} });`;
const writeViaRunCode = (marker: string): string =>
  `await tools.write({ file_path: ${JSON.stringify(marker)}, content: 'soak' });`;
const nestedViaRunCode = (marker: string): string =>
  `await tools.run_code({ code: ${JSON.stringify(bashViaRunCode(marker))}, description: 'inner' });`;

function subCallAttacks(host: 'deny' | 'ask'): Attack[] {
  const policy = host === 'deny' ? 'deny' : 'ask, answered deny';
  const make = (what: string, code: (marker: string) => string): Attack => ({
    name: `run_code -> ${what} (${policy})`,
    host,
    answer: 'deny',
    arm: ({ cwd }) => {
      const marker = join(cwd, `ran-${what.replaceAll(/\W+/g, '-')}`);
      return {
        tool: 'run_code',
        args: { code: code(marker), description: `${what} through run_code` },
        windowMs: 15_000,
        harm: markerHarm(marker, what),
      };
    },
  });
  return [
    make('bash', bashViaRunCode),
    make('write', writeViaRunCode),
    make('run_code -> bash', nestedViaRunCode),
  ];
}

/**
 * Every hostile call of the suite. Harm is judged from outside: files on disk, the
 * journal, live processes; the Page latency on another session is measured meanwhile.
 */
export const attacks: readonly Attack[] = [
  ...subCallAttacks('deny'),
  ...subCallAttacks('ask'),
  {
    name: 'run_code leaves a setter on its global',
    host: 'default',
    answer: 'deny',
    arm: ({ short }) => ({
      tool: 'run_code',
      args: {
        description: 'a setter the host calls when a tool call settles',
        code: [
          `const spin = () => { const end = Date.now() + ${short ? 1500 : 3000}; while (Date.now() < end) {} };`,
          "for (const name of ['__dshId', '__dshText', '__dshIsError']) {",
          '  Object.defineProperty(globalThis, name, { configurable: true, get: () => 0, set: spin });',
          '}',
          'globalThis.__dshHostile = new Proxy({}, { get: () => { spin(); return 0; } });',
          "await tools.glob({ pattern: '*' });",
          "return 'setter left behind';",
        ].join('\n'),
      },
      windowMs: 15_000,
      harm: noHarm('judged by Page latency'),
    }),
  },
  {
    name: 'run_code while(true){}',
    host: 'default',
    answer: 'deny',
    arm: ({ short }) => ({
      tool: 'run_code',
      args: { code: 'while (true) {}', description: 'spin forever' },
      windowMs: short ? 3_000 : 6_000,
      harm: noHarm('judged by Page latency and Cancel'),
    }),
  },
  {
    name: 'run_code allocation bomb',
    host: 'default',
    answer: 'deny',
    arm: ({ short }) => ({
      tool: 'run_code',
      args: {
        code: 'const keep = []; while (true) keep.push(new Array(1e6).fill(7));',
        description: 'allocate until something breaks',
      },
      windowMs: short ? 6_000 : 10_000,
      harm: noHarm('judged by the host surviving'),
    }),
  },
  {
    name: 'grep ^(a+)+$ on a long line of a',
    host: 'default',
    answer: 'deny',
    arm: ({ cwd, short }) => {
      writeFileSync(join(cwd, 'aaaa.txt'), `${'a'.repeat(10_000)}!\n`);
      return {
        tool: 'grep',
        args: { pattern: '^(a+)+$', path: '.' },
        windowMs: short ? 3_000 : 6_000,
        harm: noHarm('judged by Page latency and Cancel'),
      };
    },
  },
  {
    name: 'read /etc/shadow',
    host: 'default',
    answer: 'deny',
    arm: () => {
      let secret: string | undefined;
      try {
        secret = readFileSync('/etc/shadow', 'utf8').split('\n')[0];
      } catch {
        secret = undefined;
      }
      return {
        tool: 'read',
        args: { file_path: '/etc/shadow' },
        windowMs: 10_000,
        harm: (outcome) => {
          if (!secret) return { harmed: false, note: 'this user cannot read /etc/shadow' };
          const leaked = resultText(outcome.events).includes(secret);
          return leaked
            ? { harmed: true, note: '/etc/shadow content is in the journal' }
            : { harmed: false, note: '/etc/shadow not read' };
        },
      };
    },
  },
  {
    name: 'write through a symlink out of the cwd',
    host: 'default',
    answer: 'deny',
    arm: ({ cwd, outside }) => {
      symlinkSync(outside, join(cwd, 'link'));
      return {
        tool: 'write',
        args: { file_path: 'link/escaped.txt', content: 'written outside the cwd' },
        windowMs: 10_000,
        harm: markerHarm(join(outside, 'escaped.txt'), 'the write outside the cwd'),
      };
    },
  },
  {
    name: 'web_fetch of the dsh host itself',
    host: 'default',
    answer: 'deny',
    arm: ({ hostUrl }) => ({
      tool: 'web_fetch',
      args: { url: `${hostUrl}/` },
      windowMs: 10_000,
      harm: (outcome) => {
        const fetched = toolResults(outcome.events).some((r) => !r.isError);
        return fetched
          ? { harmed: true, note: `fetched ${hostUrl}/` }
          : { harmed: false, note: 'loopback fetch refused' };
      },
    }),
  },
  {
    name: 'setsid sleep survives Cancel',
    host: 'default',
    answer: 'allow',
    arm: ({ cwd }) => {
      const mark = `9999.${randomBytes(3).readUIntBE(0, 3)}`;
      mkdirSync(cwd, { recursive: true });
      return {
        tool: 'bash',
        args: {
          command: `setsid sleep ${mark} > /dev/null 2>&1 & sleep 60`,
          description: 'detach',
        },
        windowMs: 15_000,
        cancelWhen: () => processesWith(`sleep ${mark}`).length > 0,
        harm: (outcome) => {
          const left = processesWith(`sleep ${mark}`);
          killPids(left);
          if (!outcome.cancelled) return { harmed: false, note: 'the child never started' };
          return left.length > 0
            ? {
                harmed: true,
                note: `${left.length} setsid child alive after Cancel (killed by the soak)`,
              }
            : { harmed: false, note: 'no child left after Cancel' };
        },
      };
    },
  },
];
