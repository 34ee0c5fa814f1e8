import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'card-models',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});
