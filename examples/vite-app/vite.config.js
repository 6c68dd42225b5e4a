import { defineConfig } from 'vite';

// Top-level await in src/main.ts (start the fake, then render) needs a target that has it.
export default defineConfig({ build: { target: 'es2022' } });
