// The app: lists the categories under /v1 of its own origin and creates one from the form.
const headers = { Authorization: 'Bearer free-test-key', 'Content-Type': 'application/json' };

async function render(status: HTMLElement, list: HTMLElement): Promise<void> {
  const response = await fetch('/v1/categories', { headers });
  const categories = (await response.json()) as Array<{ id: number; name: string }>;
  list.replaceChildren(
    ...categories.map(({ name }) => Object.assign(document.createElement('li'), { textContent: name })),
  );
  status.textContent = `${categories.length} categories; ${response.headers.get('X-RateLimit-Remaining')} requests left this minute`;
}

/** Renders the list, and re-renders it after each category the form creates. */
export async function renderApp(): Promise<void> {
  const status = document.querySelector<HTMLParagraphElement>('#status')!;
  const list = document.querySelector<HTMLUListElement>('#categories')!;
  const form = document.querySelector<HTMLFormElement>('#create')!;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = new FormData(form).get('name');
    const response = await fetch('/v1/categories', { method: 'POST', headers, body: JSON.stringify({ name }) });
    if (!response.ok) status.textContent = ((await response.json()) as { message: string }).message;
    else await render(status, list);
  });
  await render(status, list);
}
