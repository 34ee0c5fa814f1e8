import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dshBin = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));

/** A running `dsh serve` subprocess. */
export interface DshProcess {
  /** The URL it printed (`dsh <version> serving <url>`). */
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Spawns the real CLI, `node host/cli/bin/dsh.js serve --port 0 --data-dir <dataDir>`, in
 * `cwd` with `HOME` set to `home` and every `DSH_*` variable removed (so neither a
 * config file nor an API key of the machine is used: the demo model runs).
 */
export async function startDsh(options: {
  cwd: string;
  home: string;
  dataDir: string;
}): Promise<DshProcess> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('DSH_')) env[key] = value;
  }
  env.HOME = options.home;
  const child = spawn(
    process.execPath,
    [dshBin, 'serve', '--port', '0', '--data-dir', options.dataDir],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const look = (): void => {
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) resolve(match[1] ?? '');
    };
    child.stdout.on('data', look);
    void exited.then((code) => reject(new Error(`dsh exited ${code} before serving: ${text}`)));
  });
  return {
    url,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
