// The floor of this machine: bare node:http answering a fixed JSON list, no auth, no quota, no
// routing. Plain JavaScript so that nothing (no TypeScript loader) stands between Node and the socket.
import { createServer } from 'node:http';

const body = JSON.stringify([
  { id: 1, name: 'dog', description: 'Dogs of every breed' },
  { id: 2, name: 'cat', description: 'Cats of every breed' },
  { id: 3, name: 'rabbit', description: 'Rabbits and hares' },
]);
const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(request.method === 'POST' ? 201 : 200, headers);
    response.end(body);
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`floor listening on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
