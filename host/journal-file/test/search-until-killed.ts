// A child process for the helper's kill -9 test: starts `sleep 60` on the ripgrep helper
// (as a search starts rg) and prints `running` once it runs, then waits to be killed.
import { startOnHelper } from '../src/search/start-on-helper.js';

startOnHelper(
  { program: 'sleep', args: ['60'], stdin: undefined, maxOutputBytes: 1024 },
  (event) => {
    if (event.kind === 'spawned') process.stdout.write('running\n');
  },
);
setInterval(() => undefined, 60_000);
