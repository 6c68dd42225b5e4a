import { useEffect, useState, type FormEvent } from 'react';

interface Category {
  id: number;
  name: string;
}
type Status =
  | { kind: 'loading' }
  | { kind: 'listed'; categories: Category[]; remaining: string | null }
  | { kind: 'refused'; text: string; retryAfter?: number; banned?: boolean }
  | { kind: 'offline' };

/** The categories of the Pet Store, a form to add one, and every way a call can go wrong, in words. */
export function CategoryList({ apiKey = 'free-test-key', baseUrl = '/v1' }: { apiKey?: string; baseUrl?: string }) {
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const [name, setName] = useState('');
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    });

  async function refused(response: Response) {
    const { code, message } = (await response.json()) as { code: string; message: string };
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status === 429)
      setStatus({ kind: 'refused', text: message, retryAfter, banned: code === 'temporarily_banned' });
    else if (response.status === 401) setStatus({ kind: 'refused', text: `Your API key was refused (${code}).` });
    else setStatus({ kind: 'refused', text: message });
  }

  async function load() {
    setStatus({ kind: 'loading' });
    let response: Response;
    try {
      response = await call('/categories');
    } catch {
      return setStatus({ kind: 'offline' });
    }
    if (!response.ok) return refused(response);
    const categories = (await response.json()) as Category[];
    setStatus({ kind: 'listed', categories, remaining: response.headers.get('X-RateLimit-Remaining') });
  }

  async function create(event: FormEvent) {
    event.preventDefault();
    const response = await call('/categories', { method: 'POST', body: JSON.stringify({ name }) });
    if (response.ok) await load();
    else await refused(response);
  }

  useEffect(() => {
    void load();
  }, []); // once, when it mounts

  return (
    <main style={{ fontFamily: 'sans-serif', padding: 16, maxWidth: 420 }}>
      <h1 style={{ fontSize: 20 }}>Categories</h1>
      <StatusLine status={status} />
      {status.kind === 'listed' && (
        <ul>
          {status.categories.map(({ id, name }) => (
            <li key={id}>{name}</li>
          ))}
        </ul>
      )}
      <form onSubmit={create}>
        <input aria-label="New category" value={name} onChange={(event) => setName(event.target.value)} />
        <button>Add</button>
      </form>
    </main>
  );
}

function StatusLine({ status }: { status: Status }) {
  const left = useCountdown(status.kind === 'refused' ? status.retryAfter : undefined);
  const line = (() => {
    switch (status.kind) {
      case 'loading':
        return 'Loading…';
      case 'offline':
        return 'You are offline: the Pet Store cannot be reached.';
      case 'listed':
        return status.categories.length === 0
          ? 'No categories yet: add the first one.'
          : `${status.categories.length} categories; ${status.remaining} requests left this minute`;
      case 'refused':
        if (status.retryAfter === undefined || Number.isNaN(status.retryAfter)) return status.text;
        if (left === 0) return 'You can try again now.';
        return status.banned
          ? `This key is temporarily banned: retry in ${left} s.`
          : `Too many requests: retry in ${left} s.`;
    }
  })();
  const alert = status.kind === 'refused' || status.kind === 'offline';
  return (
    <p role="status" style={{ padding: 8, background: alert ? '#fde8e8' : '#eef4ff', borderRadius: 4 }}>
      {line}
    </p>
  );
}

/** Seconds left of a wait, counting down once a second; undefined when there is none. */
function useCountdown(seconds: number | undefined): number | undefined {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    if (seconds === undefined) return;
    const timer = setInterval(() => setLeft((now) => (now === undefined || now <= 1 ? 0 : now - 1)), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}
