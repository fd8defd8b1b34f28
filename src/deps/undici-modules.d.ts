// Types for the undici files src/deps/undici.ts imports by path (undici types only its index).
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import { Dispatcher } from 'undici';
  export default Dispatcher;
}
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import { ProxyAgent } from 'undici';
  export default ProxyAgent;
}
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici';
  const api: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade'>;
  export default api;
}
declare module 'undici/lib/core/util.js' {
  const util: { parseURL(url: URL | string): URL };
  export default util;
}
