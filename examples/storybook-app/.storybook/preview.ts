import type { Preview } from '@storybook/react-vite';
import { createPreviewAnnotations } from 'msw-storybook-addon/preview';
import { createStorybookFake } from 'petstore-harness/storybook';

// One worker for the page (msw-storybook-addon starts it with the fake's handlers); before each story a
// fresh fake is built from the story's `parameters.petstore`, so every story starts in the state it names.
const petstore = createStorybookFake();
const msw = createPreviewAnnotations(petstore.startWorker);

const preview: Preview = {
  beforeEach: [msw.beforeEach, petstore.beforeEach],
};
export default preview;
