import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The inspector's web app, built into the package (dist/view-app/) so that it works offline.
// Relative and flat: `rewardkit view` serves it at / and `serve --ui` at /ui/, by file name.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/view-app/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: '',
    sourcemap: false,
  },
});
