import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // mockServiceWorker.js (`msw init public`) is served from the root, where the worker registers it.
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
};
export default config;
