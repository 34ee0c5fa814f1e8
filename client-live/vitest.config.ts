import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client-live',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
