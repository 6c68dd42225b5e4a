/**
 * What a day of ordinary use sends through `watch`: a frontend listing, creating and reading (some of it
 * at once, as pages load in parallel), and a QA tester poking at the edges by hand (a typo in a path, a
 * missing key, a bad body). Plain `fetch`, as a client would: nothing here knows what the answers
 * should be; the proxy judges them.
 */
export async function sendOrdinaryTraffic(baseUrl: string, key: string): Promise<number> {
  const auth = { Authorization: `Bearer ${key}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: {
        'User-Agent': 'ordinary-traffic/1.0',
        Origin: 'http://localhost:5173',
        ...(init.headers as Record<string, string>),
      },
    });
    await response.arrayBuffer();
    return response.status;
  };
  const calls: Array<() => Promise<number>> = [
    () => call('/categories', { headers: auth }),
    () =>
      call('/categories', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'hamster', description: 'Small rodents' }),
      }),
    () => call('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Ünïcødé 🐹 名前' }) }),
    // What people type: spaces at the ends, accents as a Mac keyboard composes them (NFD); axios's media type.
    () =>
      call('/categories', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json;charset=UTF-8' },
        body: JSON.stringify({ name: ' Cre\u0300me bru\u0302le\u0301e ', description: 'Desserts ' }),
      }),
    () => call('/categories', { headers: auth }),
    () => call('/pets/1', { headers: auth }),
    () => call('/pets/999999', { headers: auth }),
    () => call('/pets/abc', { headers: auth }),
    () => call('/store/orders', { headers: auth }),
    () => call('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: '' }) }),
    () =>
      call('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'gerbil', colour: 'sand' }) }),
    () => call('/categories', { method: 'POST', headers: json, body: '{"name": "broken"' }),
    () =>
      call('/categories', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'text/plain' },
        body: '{"name":"plain"}',
      }),
    () =>
      call('/categories', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'big', description: 'x'.repeat(17 * 1024) }),
      }),
    () => call('/categories'),
    () => call('/categories', { headers: { Authorization: 'Bearer not-a-real-key' } }),
    () => call('/categories', { method: 'PATCH', headers: json, body: '{}' }),
    () => call('/categories/', { headers: auth }),
    () => call('/Categories', { headers: auth }),
    () => call('/nothing-here', { headers: auth }),
    // Two mistakes at once, as hands make them: the spec says which one the answer names.
    () => call('/categorys'),
    () =>
      call('/categories', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name": ""}' }),
    () =>
      call('/categories', { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{"nom": "x"}' }),
  ];
  let sent = 0;
  for (const send of calls) {
    await send();
    sent += 1;
  }
  // Pages load in parallel: a few lists and creates at once, then the list that must hold them.
  const together = await Promise.all([
    call('/categories', { headers: auth }),
    call('/categories', { headers: auth }),
    call('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'at once 1' }) }),
    call('/categories', { method: 'POST', headers: json, body: JSON.stringify({ name: 'at once 2' }) }),
    call('/store/orders', { headers: auth }),
  ]);
  sent += together.length;
  await call('/categories', { headers: auth });
  return sent + 1;
}
