import vue from '@vitejs/plugin-vue';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [vue()],
  test: {
    name: 'client-web',
    include: ['test/**/*.test.ts'],
    environment: 'happy-dom',
    // Browser tests (test/browser, node environment) need the built bundle.
    globalSetup: ['test/browser/global-setup.ts'],
  },
});
