// The app under test: lists the categories, creates one, and says what went wrong in words a user reads.
// The API's address comes from the page's query (`?api=http://127.0.0.1:PORT/v1`), as an app reads its config.
const params = new URLSearchParams(location.search);
const api = params.get('api');
const key = params.get('key') ?? 'free-test-key';
const status = document.querySelector('#status');
const list = document.querySelector('#categories');
const form = document.querySelector('#create');
let countdown;

function call(path, init = {}) {
  return fetch(`${api}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
}

// A 429 says how long to wait (Retry-After); the page counts it down.
function waitThenSay(seconds, say) {
  clearInterval(countdown);
  let left = seconds;
  status.textContent = say(left);
  countdown = setInterval(() => {
    left -= 1;
    status.textContent = left > 0 ? say(left) : 'You can try again now.';
    if (left <= 0) clearInterval(countdown);
  }, 1000);
}

async function explain(response) {
  const { code, message } = await response.json();
  const retryAfter = Number(response.headers.get('Retry-After'));
  if (code === 'temporarily_banned') waitThenSay(retryAfter, (s) => `This key is temporarily banned: retry in ${s} s.`);
  else if (response.status === 429) waitThenSay(retryAfter, (s) => `Too many requests: retry in ${s} s.`);
  else if (response.status === 401) status.textContent = `Your API key was refused (${code}).`;
  else status.textContent = message;
}

async function render() {
  status.textContent = 'Loading…';
  let response;
  try {
    response = await call('/categories');
  } catch {
    status.textContent = 'You are offline: the Pet Store cannot be reached.';
    return;
  }
  if (!response.ok) return explain(response);
  const categories = await response.json();
  list.replaceChildren(
    ...categories.map(({ name }) => Object.assign(document.createElement('li'), { textContent: name })),
  );
  status.textContent =
    categories.length === 0
      ? 'No categories yet.'
      : `${categories.length} categories; ${response.headers.get('X-RateLimit-Remaining')} requests left this minute`;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const response = await call('/categories', {
    method: 'POST',
    body: JSON.stringify({ name: new FormData(form).get('name') }),
  });
  if (response.ok) await render();
  else await explain(response);
});

await render();
