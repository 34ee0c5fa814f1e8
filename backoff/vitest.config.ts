import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'backoff',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
