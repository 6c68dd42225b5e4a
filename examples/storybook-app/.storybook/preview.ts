import type { Preview } from '@storybook/react-vite';
import { createPreviewAnnotations } from 'msw-storybook-addon/preview';
import { createStorybookFake } from 'petstore-harness/storybook';

// One worker for the page (msw-storybook-addon starts it with the fake's handlers); before each story a
// fresh fake is built from the story's `parameters.petstore`, so every story starts in the state it names.
// The fake's time stands still at the start of a minute: a 429 says "retry in 60 s" on every render.
const petstore = createStorybookFake({ clock: { now: () => Date.UTC(2026, 0, 1, 12, 0, 0) } });
const msw = createPreviewAnnotations(petstore.startWorker);

const preview: Preview = {
  beforeEach: [msw.beforeEach, petstore.beforeEach],
};
export default preview;
