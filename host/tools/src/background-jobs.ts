import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { isProcessGroupAlive, killProcessGroup } from './process-group.js';

/** A command launched with `background: true`. */
export interface BackgroundJob {
  jobId: string;
  pid: number;
  outputPath: string;
}

/**
 * Launches commands detached, in their own process group, with stdout and stderr
 * appended to one file. Jobs outlive the call; `dispose` ends those still running.
 */
export class BackgroundJobs {
  private next = 0;
  private readonly jobs = new Map<string, BackgroundJob>();

  /** Starts `program args` in `cwd`, its output going to `outputPath`. */
  async launch(
    program: string,
    args: string[],
    cwd: string,
    outputPath: string,
  ): Promise<BackgroundJob> {
    const fd = openSync(outputPath, 'a');
    try {
      const child = spawn(program, args, { cwd, detached: true, stdio: ['ignore', fd, fd] });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      const job = { jobId: `bg${++this.next}`, pid: child.pid ?? 0, outputPath };
      this.jobs.set(job.jobId, job);
      child.once('exit', () => this.jobs.delete(job.jobId));
      return job;
    } finally {
      closeSync(fd);
    }
  }

  /** Jobs whose process group is still alive. */
  running(): BackgroundJob[] {
    return [...this.jobs.values()].filter((job) => isProcessGroupAlive(job.pid));
  }

  /** Kills every job still running. */
  async dispose(): Promise<void> {
    await Promise.all(this.running().map((job) => killProcessGroup(job.pid)));
    this.jobs.clear();
  }
}
