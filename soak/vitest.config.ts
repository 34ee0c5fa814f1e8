import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'soak',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
