import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.js';

/** Builds the web client into `dist/`, which the host serves at `/` (same origin as the API). */
export default defineConfig({
  plugins: [vue(), precompress()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2_000,
  },
  server: {
    // `npm run dev -w @dsh/client-web` with a host on 7420: API calls go to the host.
    proxy: { '/dsh.session.v1.SessionService': 'http://127.0.0.1:7420' },
  },
});
