import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textWidth } from '../src/index.js';
import { pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import { sshMissing, startDshSsh, type SshServerProcess } from './ssh-server-process.js';
import { startTmux, type TmuxSession } from './tmux.js';

/** Moves focus to the composer from wherever it is (Esc, then i when Esc left it). */
async function toComposer(t: TmuxSession): Promise<void> {
  const composing = (s: string) => (s.trimEnd().split('\n').at(-1) ?? '').includes('C-j newline');
  t.keys('Escape');
  await pause(300);
  if (!composing(t.capture())) t.keys('i');
  await t.waitFor(composing, 'the composer');
}

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

const skip = tmuxMissing('the dsh ssh end-to-end tests') || sshMissing();

describe.skipIf(skip)('dsh ssh: the terminal client over OpenSSH', () => {
  let dir: string;
  let host: TestHost;
  let server: SshServerProcess;
  const tmuxes: TmuxSession[] = [];

  const dataDir = () => join(dir, 'data');
  const key = (name: string) => join(dir, name);
  const serverArgs = () => [
    '--host',
    host.url,
    '--data-dir',
    dataDir(),
    '--authorized-keys',
    join(dir, 'authorized_keys'),
  ];
  /** OpenSSH pinned to the server's host key, with `identity` and nothing from ~/.ssh. */
  const sshCommand = (identity: string, extra = '-tt') =>
    `ssh -F /dev/null -p ${server.port} -i ${identity} -o IdentitiesOnly=yes ` +
    `-o UserKnownHostsFile=${join(dir, 'known_hosts')} -o StrictHostKeyChecking=yes ` +
    `-o BatchMode=yes ${extra} dsh@127.0.0.1`;
  const pinHostKey = () => {
    const pub = readFileSync(join(dataDir(), 'ssh_host_ed25519_key.pub'), 'utf8').trim();
    writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${server.port} ${pub}\n`);
  };
  const inTmux = (cols: number, rows: number, identity = key('person')) => {
    const t = startTmux(
      `TERM=xterm-256color ${sshCommand(identity)}; echo SSH-EXIT=$?; sleep 60`,
      cols,
      rows,
    );
    tmuxes.push(t);
    return t;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dsh-ssh-'));
    mkdirSync(join(dir, 'journals'));
    for (const name of ['person', 'stranger']) {
      spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', key(name)]);
    }
    writeFileSync(
      join(dir, 'authorized_keys'),
      `# the person's key\nno-pty ${readFileSync(`${key('person')}.pub`, 'utf8')}not a key line\n`,
    );
    host = await startTestHost({ dataDir: join(dir, 'journals') });
    const journal = await host.store.create({ cwd: dir, title: 'Over SSH', model: 'demo' });
    await journal.append(
      agentTurn({ turn: 1, user: 'Where am I?', say: 'In a **terminal** served over SSH.' }),
    );
    server = await startDshSsh(serverArgs());
    pinHostKey();
  });
  afterAll(async () => {
    for (const t of tmuxes) t.kill();
    server?.child.kill('SIGTERM');
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the generated host key, the keys it accepts and the line it skipped', () => {
    const out = server.output();
    expect(out).toMatch(/generated the host key .*ssh_host_ed25519_key \(SHA256:[\w+/]{43}\)/);
    expect(out).toContain('1 authorized key(s)');
    expect(out).toContain('line 3: no public key on the line (skipped)');
  });

  it(
    'serves the client to ssh -tt, follows resizes, sends a prompt and ends on quit',
    { timeout: 120_000 },
    async () => {
      const t = inTmux(80, 24);
      const first = await t.waitFor(
        (s) =>
          s.includes('Over SSH') && s.includes('served over SSH') && s.includes('write a prompt'),
        'the client over SSH',
      );
      for (const row of first.split('\n')) expect(textWidth(row)).toBeLessThanOrEqual(80);
      await server.waitFor(
        (out) => /dsh@127\.0\.0\.1:\d+ opened a client 80x24 xterm-256color/.test(out),
        'the open log',
      );

      t.text('hello over ssh');
      t.keys('Enter');
      await t.waitFor((s) => s.includes('› hello over ssh'), 'the prompt sent over SSH');

      // A window change reaches the client: it lays out for 120 columns and 30 rows.
      t.resize(120, 30);
      const wide = await t.waitFor(
        (s) =>
          s.split('\n').some((row) => textWidth(row.trimEnd()) > 80) &&
          s.trimEnd().split('\n').length === 30,
        'the client redrawn at 120x30',
      );
      for (const row of wide.split('\n')) expect(textWidth(row)).toBeLessThanOrEqual(120);
      t.resize(60, 20);
      await t.waitFor(
        (s) =>
          s.trimEnd().split('\n').length === 20 &&
          s.split('\n').every((row) => textWidth(row) <= 60) &&
          s.includes('Over SSH'),
        'the client redrawn at 60x20',
      );

      // Quitting while the turn waits for an approval asks once; y ends the SSH session.
      await t.waitFor((s) => s.includes('Allow bash?'), 'the approval prompt', 30_000);
      await pause(700); // the prompt's keys arm a moment after it takes focus
      await toComposer(t);
      t.keys('C-d');
      await t.waitFor((s) => s.includes('Quit?'), 'the quit question');
      t.keys('y');
      const after = await t.waitFor((s) => s.includes('SSH-EXIT='), 'ssh to exit');
      expect(after).toContain('SSH-EXIT=0');
      await server.waitFor((out) => out.includes('closed its client (0 open)'), 'the close log');
    },
  );

  it('gives each connection its own client and size, and ends a client whose ssh dies', async () => {
    const closedBefore = count(server.output(), 'closed its client');
    const small = inTmux(80, 24);
    const large = inTmux(132, 40);
    await small.waitFor(
      (s) => s.includes('Over SSH') && s.includes('Approve bash?'),
      'the 80x24 client',
    );
    await large.waitFor(
      (s) => s.includes('Over SSH') && s.includes('Approve bash?'),
      'the 132x40 client',
    );
    await server.waitFor(
      (out) => out.includes('opened a client 132x40') && out.includes('(2 open)'),
      'two clients',
    );
    expect(
      large
        .capture()
        .split('\n')
        .some((row) => textWidth(row.trimEnd()) > 100),
    ).toBe(true);
    // Typing in one client leaves the other's draft alone.
    await toComposer(small);
    small.text('only here');
    await small.waitFor((s) => s.includes('only here'), 'the draft in the small client');
    await pause(300);
    expect(large.capture()).not.toContain('only here');
    // The terminal running ssh goes away: the server ends that client and keeps the other.
    small.kill();
    await server.waitFor(
      (out) => count(out, 'closed its client') === closedBefore + 1,
      'the dropped client closed',
    );
    expect(server.output()).toContain('closed its client (1 open)');
    await toComposer(large);
    large.text('still here');
    await large.waitFor((s) => s.includes('still here'), 'the other client still served');
    large.kill();
    await server.waitFor(
      (out) => count(out, 'closed its client') === closedBefore + 2,
      'both closed',
    );
  });

  it('refuses a key that is not listed, a connection without a terminal and a command', () => {
    const run = (identity: string, extra: string) =>
      spawnSync('sh', ['-c', sshCommand(identity, extra)], { encoding: 'utf8', timeout: 20_000 });
    const stranger = run(key('stranger'), '-tt');
    expect(stranger.status).toBe(255);
    expect(stranger.stderr).toContain('Permission denied (publickey)');
    const noTerminal = run(key('person'), '-T');
    expect(noTerminal.stderr).toContain('needs a terminal: connect with ssh -t');
    expect(noTerminal.status).toBe(2);
    const exec = spawnSync('sh', ['-c', `${sshCommand(key('person'), '-T')} ls /`], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(exec.stderr).toContain('runs no commands');
    expect(exec.status).toBe(2);
  });

  it('accepts a key added to authorized_keys without a restart', async () => {
    const before = spawnSync('sh', ['-c', sshCommand(key('stranger'), '-T')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(before.status).toBe(255);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${key('stranger')}.pub`), {
      flag: 'a',
    });
    const t = inTmux(80, 24, key('stranger'));
    await t.waitFor(
      (s) => s.includes('Over SSH') && s.includes('compose'),
      'the client for the added key',
    );
    t.kill();
  });

  it('off loopback without keys takes the printed password and nothing else', async () => {
    writeFileSync(join(dir, 'no_keys'), '');
    const open = await startDshSsh([
      ...serverArgs().slice(0, 4),
      '--authorized-keys',
      join(dir, 'no_keys'),
      '--listen',
      '0.0.0.0',
    ]);
    try {
      const password = /password (\S+) \(generated for 0\.0\.0\.0/.exec(open.output())?.[1];
      expect(password).toMatch(/^[\w-]{24}$/);
      const askpass = join(dir, 'askpass');
      const login = (given: string) => {
        writeFileSync(askpass, `#!/bin/sh\necho '${given}'\n`, { mode: 0o700 });
        const command =
          `ssh -F /dev/null -p ${open.port} -o UserKnownHostsFile=/dev/null ` +
          '-o StrictHostKeyChecking=no -o PubkeyAuthentication=no -o NumberOfPasswordPrompts=1 ' +
          '-o PreferredAuthentications=password -T dsh@127.0.0.1';
        return spawnSync('sh', ['-c', command], {
          encoding: 'utf8',
          timeout: 20_000,
          env: { ...process.env, SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: 'force' },
        });
      };
      const wrong = login('not-the-password');
      expect(wrong.status).toBe(255);
      expect(wrong.stderr).toContain('Permission denied');
      const right = login(password!);
      expect(right.stderr).toContain('needs a terminal'); // authenticated, then told to use -t
      expect(right.status).toBe(2);
    } finally {
      open.child.kill('SIGTERM');
    }
  });

  it('keeps its host key across restarts and stops cleanly on SIGTERM', async () => {
    const printed = /host key .*\((SHA256:[\w+/]+)\)/;
    const fingerprint = printed.exec(server.output())![1];
    server.child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    expect(code).toBe(0);
    server = await startDshSsh(serverArgs());
    expect(server.output()).not.toContain('generated');
    expect(printed.exec(server.output())![1]).toBe(fingerprint);
    pinHostKey(); // the port changed; the key did not
    const t = inTmux(80, 24);
    await t.waitFor((s) => s.includes('Over SSH'), 'the client after the restart');
    t.kill();
  });
});
