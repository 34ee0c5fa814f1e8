/**
 * The `dsh` command line: `serve` (the host: journal store, agent runtime, Connect server
 * and web client on one port), `tui` (the terminal client), `ssh` (it, served to SSH clients) and `import` (Claude Code
 * transcripts). `bin/dsh.js` calls `main` and exits with its code.
 */
export { main } from './main.js';
export { dshBin } from './dsh-bin.js';
export {
  defaultPort,
  parseServeArgs,
  usage,
  type CliRequest,
  type ServeConfig,
} from './parse-serve-args.js';
