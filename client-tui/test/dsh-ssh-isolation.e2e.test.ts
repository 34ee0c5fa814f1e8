import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentTurn } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pause, tmuxMissing } from './launch-tui.js';
import { sshMissing, startDshSsh, type SshServerProcess } from './ssh-server-process.js';
import { startTestHost, type TestHost } from './test-host.js';
import { startTmux, type TmuxSession } from './tmux.js';

const skip = tmuxMissing('the dsh ssh isolation test') || sshMissing();
const fault = fileURLToPath(new URL('./fault-on-marker.mjs', import.meta.url));

describe.skipIf(skip)('dsh ssh: one client’s failure ends that client only', () => {
  let dir: string;
  let host: TestHost;
  let server: SshServerProcess;
  const tmuxes: TmuxSession[] = [];

  const inTmux = () => {
    const t = startTmux(
      `TERM=xterm-256color ssh -F /dev/null -p ${server.port} -i ${join(dir, 'person')} ` +
        `-o IdentitiesOnly=yes -o UserKnownHostsFile=${join(dir, 'known_hosts')} ` +
        `-o StrictHostKeyChecking=yes -o BatchMode=yes -tt dsh@127.0.0.1; echo SSH-EXIT=$?; sleep 60`,
      100,
      30,
    );
    tmuxes.push(t);
    return t;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dsh-ssh-isolation-'));
    mkdirSync(join(dir, 'journals'));
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'person')]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'person.pub')));
    host = await startTestHost({ dataDir: join(dir, 'journals') });
    const journal = await host.store.create({ cwd: dir, title: 'Shared', model: 'demo' });
    await journal.append(agentTurn({ turn: 1, user: 'Hi', say: 'Two clients share me.' }));
    server = await startDshSsh(
      [
        '--host',
        host.url,
        '--data-dir',
        join(dir, 'data'),
        '--authorized-keys',
        join(dir, 'authorized_keys'),
      ],
      { NODE_OPTIONS: `--import=${fault}` },
    );
    const pub = readFileSync(join(dir, 'data', 'ssh_host_ed25519_key.pub'), 'utf8').trim();
    writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${server.port} ${pub}\n`);
  });
  afterAll(async () => {
    for (const t of tmuxes) t.kill();
    server?.child.kill('SIGTERM');
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a draw that throws in one client leaves the other client and the server running', async () => {
    const failing = inTmux();
    const other = inTmux();
    for (const t of [failing, other]) {
      await t.waitFor(
        (s) => s.includes('Two clients share me') && s.includes('write a prompt'),
        'a client',
      );
    }
    await server.waitFor((out) => out.includes('(2 open)'), 'two clients');
    // The marker in the composer makes that client's next draw throw (fault-on-marker.mjs).
    failing.text('FAULT-7F3');
    const ended = await failing.waitFor(
      (s) => s.includes('SSH-EXIT='),
      'the failing client to end',
    );
    expect(ended).toContain('the terminal client failed (a draw failed on FAULT-7F3)');
    expect(ended).toContain('SSH-EXIT=1');
    const log = await server.waitFor(
      (out) => out.includes('closed its client (1 open)'),
      'the log',
    );
    expect(log).toContain('client failed: Error: a draw failed on FAULT-7F3');
    // The other client still draws what is typed into it, and the server takes new ones.
    other.text('still served');
    await other.waitFor((s) => s.includes('still served'), 'the other client to draw');
    expect(other.capture()).not.toContain('SSH-EXIT=');
    const again = inTmux();
    await again.waitFor((s) => s.includes('Two clients share me'), 'a new client');
    await pause(200);
    expect(server.child.exitCode).toBe(null);
  }, 120_000);
});
