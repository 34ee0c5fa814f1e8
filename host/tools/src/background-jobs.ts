import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { processAlive, ProcessTree } from './process-group.js';

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
  private readonly jobs = new Map<string, { job: BackgroundJob; tree: ProcessTree }>();

  /** Starts `program args` in `cwd`, its output going to `outputPath`. */
  async launch(
    program: string,
    args: string[],
    cwd: string,
    outputPath: string,
  ): Promise<BackgroundJob> {
    const fd = openSync(outputPath, 'a');
    try {
      const tree = new ProcessTree();
      const child = spawn(program, args, {
        cwd,
        detached: true,
        env: tree.spawnEnv(),
        stdio: ['ignore', fd, fd],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      const job = { jobId: `bg${++this.next}`, pid: child.pid ?? 0, outputPath };
      tree.watch(job.pid);
      this.jobs.set(job.jobId, { job, tree });
      // What the job leaves running when it exits is still killed by `dispose`.
      child.once('exit', () => tree.forget());
      return job;
    } finally {
      closeSync(fd);
    }
  }

  /** Jobs whose leader process is still running. */
  async running(): Promise<BackgroundJob[]> {
    const jobs = [...this.jobs.values()].map(({ job }) => job);
    const alive = await Promise.all(jobs.map((job) => processAlive(job.pid)));
    return jobs.filter((_job, i) => alive[i]);
  }

  /** Kills every job and whatever it started that still runs. */
  async dispose(): Promise<void> {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    await Promise.all(jobs.map(({ tree }) => tree.kill()));
  }
}
