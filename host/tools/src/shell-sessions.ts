import { PersistentShell } from './persistent-shell.js';
import { BackgroundJobs } from './background-jobs.js';

/**
 * The host's long-lived shell state: persistent shells per (session id, shell name)
 * and background jobs. One per host; `dispose` kills every process it started.
 */
export class ShellSessions {
  readonly background = new BackgroundJobs();
  private readonly shells = new Map<string, PersistentShell>();

  /** The named shell of a session, started in `cwd` when missing or ended. */
  shell(sessionId: string, name: string, cwd: string): PersistentShell {
    const key = `${sessionId}\u0000${name}`;
    let shell = this.shells.get(key);
    if (!shell || !shell.isAlive) {
      shell = new PersistentShell(cwd);
      this.shells.set(key, shell);
    }
    return shell;
  }

  /** Kills every persistent shell and background job. */
  async dispose(): Promise<void> {
    const shells = [...this.shells.values()];
    this.shells.clear();
    await Promise.all([...shells.map((shell) => shell.dispose()), this.background.dispose()]);
  }
}
