import { builtinEnvironments, type Environment } from 'vitest/environments';

const happyDom = builtinEnvironments['happy-dom'];

/** How long a test file's window may take to close before the run goes on without it. */
const teardownLimitMs = 10_000;

function bounded(teardown: PromiseLike<void> | void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn(`happy-dom's window did not close within ${teardownLimitMs} ms; going on`);
      resolve();
    }, teardownLimitMs);
    timer.unref();
  });
  return Promise.race([Promise.resolve(teardown), limit]).finally(() => clearTimeout(timer));
}

/**
 * Vitest's happy-dom environment with a bounded teardown. Vitest awaits
 * `window.happyDOM.abort()` with no limit, and that promise waits for every task the
 * window still tracks (vitest-dev/vitest#4951), so one late timer could hold the whole run;
 * tests and hooks are bounded by vitest, this is the one wait of a file that is not.
 */
const boundedHappyDom: Environment = {
  ...happyDom,
  name: 'bounded-happy-dom',
  async setup(global, options) {
    const environment = await happyDom.setup(global, options);
    return { teardown: (teardownGlobal) => bounded(environment.teardown(teardownGlobal)) };
  },
};

export default boundedHappyDom;
