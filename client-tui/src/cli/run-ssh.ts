import ssh2, { type ParsedKey } from 'ssh2';
import { createSessionClient } from '../data/session-client.js';
import { isolateClients } from '../ssh/client-isolation.js';
import { accessPolicy, fingerprint } from '../ssh/ssh-access.js';
import { loadOrCreateHostKey } from '../ssh/ssh-keys.js';
import { startSshServer, type ChannelTerminal } from '../ssh/start-ssh-server.js';
import { detectColorDepth } from '../text/color-depth.js';
import { createTuiApp } from '../ui/create-tui-app.js';
import { parseSshArgs, sshUsage } from './parse-ssh-args.js';

/**
 * Runs `dsh ssh` until SIGINT or SIGTERM: an SSH server on which every `ssh -t` gets its
 * own terminal client of the dsh host. Resolves with the exit code.
 */
export async function runSsh(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<number> {
  const out = (line: string) => void process.stdout.write(`${line}\n`);
  const fail = (message: string) => {
    process.stderr.write(`dsh ssh: ${message}\n`);
    return 2;
  };
  const request = parseSshArgs(argv, env, cwd);
  switch (request.kind) {
    case 'help':
      process.stdout.write(sshUsage);
      return 0;
    case 'error':
      process.stderr.write(`dsh ssh: ${request.message}\n\n${sshUsage}`);
      return 2;
    case 'ssh':
      break;
    default: {
      const unknown: never = request;
      throw new Error(`unhandled request ${JSON.stringify(unknown)}`);
    }
  }
  const { config } = request;
  const hostKey = loadOrCreateHostKey(config.hostKeyPath);
  if (!hostKey.ok) return fail(hostKey.error);
  const policy = accessPolicy(config.listen, config.authorizedKeysPath, config.sshToken);
  if ('error' in policy) return fail(policy.error);
  const client = createSessionClient(config.tui.url, config.tui.token);
  // Installed before the first screen: one client's exception ends that client only; one
  // that belongs to no client ends the process, as it would without clients.
  const isolation = isolateClients((error) => {
    process.stderr.write(`dsh ssh: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
  const startClient = (terminal: ChannelTerminal) => {
    const app = createTuiApp({
      client,
      hostLabel: config.tui.url.replace(/^https?:\/\//, ''),
      input: terminal.input,
      output: terminal.output,
      colorDepth: detectColorDepth({ ...env, TERM: terminal.term, COLORTERM: undefined }),
      mouse: config.tui.mouse,
      bell: config.tui.bell,
      editor: false,
    });
    return { done: app.done, close: () => app.close() };
  };
  let server;
  try {
    server = await startSshServer({
      hostKey: hostKey.value.key,
      access: policy.access,
      host: config.listen,
      port: config.port,
      startClient,
      log: out,
      isolation,
    });
  } catch (error) {
    isolation.dispose();
    return fail(
      `cannot listen on ${config.listen}:${config.port} (${(error as Error).message}): pass another --port or --listen`,
    );
  }
  const parsed = ssh2.utils.parseKey(hostKey.value.key) as ParsedKey;
  out(
    `dsh ssh: ${hostKey.value.created ? 'generated the host key' : 'host key'} ${config.hostKeyPath} (${fingerprint(parsed)})`,
  );
  for (const note of policy.notes) out(note);
  out(`dsh ssh: clients of ${config.tui.url}`);
  out(`dsh ssh: listening; connect with ssh -t -p ${server.port} ${config.listen}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  out('dsh ssh: closing every connection');
  await server.close();
  isolation.dispose();
  return 0;
}
