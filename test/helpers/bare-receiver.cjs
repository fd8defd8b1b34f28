// The receiver's floor in `npm run bench` (scripts/bench-receiver.ts): a bare node:http server,
// CommonJS like the start-up floors, that reads each request's body and answers 202 without
// checking or storing anything. It prints its port on stdout once listening; SIGTERM stops it.
const http = require('node:http');

const server = http.createServer({ keepAliveTimeout: 5000 }, (request, response) => {
  request.on('data', () => {});
  request.on('end', () => {
    response.writeHead(202, { 'content-type': 'text/plain; charset=utf-8', 'content-length': 7 });
    response.end('stored\n');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on 127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
