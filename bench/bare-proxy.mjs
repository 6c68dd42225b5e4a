// What any Node reverse proxy costs on this machine: node:http in, node:http out with keep-alive,
// bytes piped, nothing judged. `watch` is measured beside it, so its ratio to the fake alone can be
// read against what forwarding alone allows here.
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true });
const server = createServer((incoming, outgoing) => {
  const headers = { ...incoming.headers, host: upstream.host };
  delete headers.connection;
  const forwarded = request(
    { hostname: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers, agent },
    (answer) => {
      outgoing.writeHead(answer.statusCode, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', () => outgoing.destroy());
  incoming.pipe(forwarded);
});
server.listen(Number(process.argv[3] ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
