// The floor of catch-up's figure in `npm run bench` (scripts/bench-catch-up.ts): a bare CommonJS loop
// over the same fake GitHub pages with node:http, following `Link`, and asking for each delivery
// that failed, as a pass must; it checks nothing and stores nothing. Prints the requests it made.
const http = require('node:http');

const [api, token, hook] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });

function get(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: JSON.parse(Buffer.concat(chunks)) }));
    });
    request.on('error', reject);
  });
}

(async () => {
  let requests = 0;
  let url = `${api}/${hook}/deliveries?per_page=100`;
  const failed = [];
  while (url) {
    const page = await get(url);
    requests++;
    for (const delivery of page.body)
      if (delivery.event === 'deployment_status' && (delivery.status_code < 200 || delivery.status_code > 299))
        failed.push(delivery.id);
    url = /<([^>]+)>;\s*rel="next"/.exec(page.headers.link || '')?.[1];
  }
  for (const id of failed) {
    await get(`${api}/${hook}/deliveries/${id}`);
    requests++;
  }
  agent.destroy();
  process.stdout.write(`${requests}\n`);
})();
