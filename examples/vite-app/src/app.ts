// The app: lists the categories under its API's base URL and creates one from the form.
export interface AppOptions {
  /** Default `/v1` on the page's own origin. */
  baseUrl?: string;
  /** The API key the app sends. Default `free-test-key`. */
  key?: string;
}

async function render(baseUrl: string, headers: HeadersInit, status: HTMLElement, list: HTMLElement): Promise<void> {
  const response = await fetch(`${baseUrl}/categories`, { headers });
  const categories = (await response.json()) as Array<{ id: number; name: string }>;
  list.replaceChildren(
    ...categories.map(({ name }) => Object.assign(document.createElement('li'), { textContent: name })),
  );
  status.textContent = `${categories.length} categories; ${response.headers.get('X-RateLimit-Remaining')} requests left this minute`;
}

/** Renders the list, and re-renders it after each category the form creates. */
export async function renderApp({ baseUrl = '/v1', key = 'free-test-key' }: AppOptions = {}): Promise<void> {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const status = document.querySelector<HTMLParagraphElement>('#status')!;
  const list = document.querySelector<HTMLUListElement>('#categories')!;
  const form = document.querySelector<HTMLFormElement>('#create')!;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = new FormData(form).get('name');
    const response = await fetch(`${baseUrl}/categories`, { method: 'POST', headers, body: JSON.stringify({ name }) });
    if (!response.ok) status.textContent = ((await response.json()) as { message: string }).message;
    else await render(baseUrl, headers, status, list);
  });
  await render(baseUrl, headers, status, list);
}
