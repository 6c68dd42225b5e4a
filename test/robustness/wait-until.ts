/** Polls `condition` every 20 ms until it holds; rejects after `timeoutMs` (bounded, never a timing assertion). */
export function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      if (condition()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() > deadline) {
        clearInterval(poll);
        reject(new Error(`condition not met within ${timeoutMs} ms`));
      }
    }, 20);
  });
}
