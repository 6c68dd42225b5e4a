import { defineConfig } from 'vite';

// Top-level await in src/main.ts (start the fake, then render) needs a target that has it. Two pages: the
// README's quick start (index.html) and the browser guide's backend switch (backend-switch.html).
export default defineConfig({
  build: { target: 'es2022', rollupOptions: { input: ['index.html', 'backend-switch.html'] } },
});
