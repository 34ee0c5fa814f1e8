#!/usr/bin/env node
// The dsh command. The host runs from its TypeScript sources through tsx's loader,
// so a checkout needs no build step before `npm start`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exit(await main(process.argv.slice(2), process.env));
