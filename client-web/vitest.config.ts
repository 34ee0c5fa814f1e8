import vue from '@vitejs/plugin-vue';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [vue()],
  test: {
    name: 'client-web',
    include: ['test/**/*.test.ts'],
    // happy-dom with a bounded teardown (test/environment/bounded-happy-dom.ts).
    environment: './test/environment/bounded-happy-dom.ts',
    // Browser tests (test/browser, node environment) need the built bundle.
    globalSetup: ['test/browser/global-setup.ts'],
  },
});
