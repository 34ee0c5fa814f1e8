import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const packages = ['card-models', 'fixtures', 'host', 'client-tui', 'client-web', 'scripts', 'soak'];

export default defineConfig({
  test: {
    projects: packages.filter((dir) => existsSync(`${dir}/vitest.config.ts`)),
  },
});
