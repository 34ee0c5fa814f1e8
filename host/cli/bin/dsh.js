#!/usr/bin/env node
// The dsh command: its sources load as a bundle when they can (see load-main.js), so a
// checkout needs no build step before `npm start`.
import { loadMain } from './load-main.js';

const main = await loadMain();
process.exit(await main(process.argv.slice(2), process.env));
