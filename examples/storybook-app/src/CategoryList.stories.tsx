import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { EMPTY_SEED } from 'petstore-harness';
import type { PetstoreParameters } from 'petstore-harness/storybook';
import { expect, userEvent, within } from 'storybook/test';
import { CategoryList } from './CategoryList';

// One story per state of the UI. `parameters.petstore` sets the fake's state before the story renders;
// from there the fake behaves as it ordinarily would: the headers, the 429 and the ban come from it.
const meta = {
  title: 'Pet Store/CategoryList',
  component: CategoryList,
} satisfies Meta<typeof CategoryList>;
export default meta;
type Story = StoryObj<typeof meta>;
const petstore = (parameters: PetstoreParameters) => ({ petstore: parameters });

export const Seeded: Story = {};

export const EmptyList: Story = { parameters: petstore({ seed: EMPTY_SEED }) };

export const LoadingUnderLatency: Story = { parameters: petstore({ latency: 3000 }) };

export const InvalidName: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('dog');
    await userEvent.click(canvas.getByRole('button', { name: 'Add' }));
    await expect(await canvas.findByText(/name/)).toBeVisible();
  },
};

export const Unauthorized: Story = { parameters: petstore({ keys: { 'free-test-key': { revoked: true } } }) };

export const RateLimited: Story = {
  parameters: petstore({ keys: { 'free-test-key': { quota: { minuteRemaining: 0 } } } }),
};

export const Banned: Story = { parameters: petstore({ keys: { 'free-test-key': { ban: { seconds: 300 } } } }) };

export const Offline: Story = { parameters: petstore({ faults: [{ effect: { network: 'error' } }] }) };

// One answer the fake would never give: msw's own handler, in front of the fake's for this story only.
export const ManyCategories: Story = {
  beforeEach: ({ msw }) => {
    const many = Array.from({ length: 12 }, (_, index) => ({ id: index + 1, name: `category ${index + 1}` }));
    msw.use(http.get('/v1/categories', () => HttpResponse.json(many, { headers: { 'X-RateLimit-Remaining': '42' } })));
  },
};
