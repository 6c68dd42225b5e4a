import { createFakeWorker } from 'petstore-harness/browser';

const headers = { Authorization: 'Bearer free-test-key', 'Content-Type': 'application/json' };
const status = document.querySelector<HTMLParagraphElement>('#status')!;
const list = document.querySelector<HTMLUListElement>('#categories')!;
const form = document.querySelector<HTMLFormElement>('#create')!;

async function render(): Promise<void> {
  const response = await fetch('/v1/categories', { headers });
  const categories = (await response.json()) as Array<{ id: number; name: string }>;
  list.replaceChildren(
    ...categories.map(({ name }) => Object.assign(document.createElement('li'), { textContent: name })),
  );
  status.textContent = `${categories.length} categories; ${response.headers.get('X-RateLimit-Remaining')} requests left this minute`;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = new FormData(form).get('name');
  const response = await fetch('/v1/categories', { method: 'POST', headers, body: JSON.stringify({ name }) });
  if (!response.ok) status.textContent = ((await response.json()) as { message: string }).message;
  else await render();
});

// The fake answers under /v1 of this page's origin; start it before the first request.
await createFakeWorker().start({ quiet: true });
await render();
