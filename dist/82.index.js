"use strict";
exports.id = 82;
exports.ids = [82];
exports.modules = {

  7082:
  ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


__webpack_require__.d(__webpack_exports__, {
  createHttpClient: () => (  createHttpClient)
});

var promises_ = __webpack_require__(8500);
var constants = __webpack_require__(2851);
var network_error = __webpack_require__(3647);
; 

const MAY_HAVE_ARRIVED = new Set(['timeout', 'reset', 'other']);
function mayHaveArrived(outcome) {
    if (outcome.kind === 'network')
        return MAY_HAVE_ARRIVED.has(outcome.cause);
    return outcome.status >= 500 || outcome.status === 408;
}
const PATCH_RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const POST_RETRY_STATUSES = new Set([429, 503]);
const POST_RETRY_CAUSES = new Set(['refused', 'dns', 'proxy-refused']);
const NEVER_RETRY_CAUSES = new Set(['tls', 'proxy-auth', 'malformed']);
function isRetryable(method, outcome) {
    if (outcome.kind === 'network' && NEVER_RETRY_CAUSES.has(outcome.cause))
        return false;
    if (method === 'PATCH')
        return outcome.kind === 'network' || PATCH_RETRY_STATUSES.has(outcome.status);
    return outcome.kind === 'network' ? POST_RETRY_CAUSES.has(outcome.cause) : POST_RETRY_STATUSES.has(outcome.status);
}
function backoffMs(retry, random = Math.random) {
    return Math.round(Math.min(constants .xu.backoffCapMs, constants .xu.backoffBaseMs * 2 ** retry) * random());
}
function retryAfterMs(header, now = Date.now()) {
    if (!header)
        return undefined;
    const value = header.trim();
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
    if (Number.isNaN(ms))
        return undefined;
    return Math.min(constants .xu.retryAfterMs, Math.max(0, ms));
}

var secret = __webpack_require__(4080);
var dispatcher = __webpack_require__(6089);
var dispatcher_default =  __webpack_require__.n(dispatcher);
var api = __webpack_require__(8833);
var agent = __webpack_require__(3779);
var agent_default =  __webpack_require__.n(agent);
var util = __webpack_require__(586);
var util_default =  __webpack_require__.n(util);
var external_node_net_ = __webpack_require__(7030);
; 





Object.assign((dispatcher_default()).prototype, api);
function phaseTimeouts({ timeoutMs }) {
    const ms = Math.max(1, Math.ceil(timeoutMs));
    return { connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms };
}
function createAgent(timeouts) {
    return new (agent_default())(phaseTimeouts(timeouts));
}
async function createProxyAgent(proxy, timeouts) {
    const [{ default: ProxyAgent }, { default: Pool }] = await Promise.all([
        __webpack_require__.e(  942).then(__webpack_require__.t.bind(__webpack_require__, 4942, 23)),
        Promise.resolve( ).then(__webpack_require__.t.bind(__webpack_require__, 7454, 23)),
    ]);
    const phases = phaseTimeouts(timeouts);
    return new ProxyAgent({
        uri: proxy.href,
        ...phases,
        clientFactory: (origin, options) => new Pool(origin, { ...options, ...phases, connect: withoutAddressServername(options.connect) }),
    });
}
function withoutAddressServername(connect) {
    return (options, callback) => connect((0,external_node_net_.isIP)(options.servername ?? '') ? { ...options, servername: undefined } : options, callback);
}
function request(url, { dispatcher, ...options }) {
    const target = util_default().parseURL(url);
    return api.request.call(dispatcher, {
        ...options,
        origin: target.origin,
        path: target.search ? `${target.pathname}${target.search}` : target.pathname,
        method: options.method || (options.body ? 'PUT' : 'GET'),
    });
}
function undiciLazyBuiltins() {
    return {
        'node:http2': {
            file: 'node-http2.js',
            constants: {
                HTTP2_HEADER_AUTHORITY: ':authority',
                HTTP2_HEADER_METHOD: ':method',
                HTTP2_HEADER_PATH: ':path',
                HTTP2_HEADER_SCHEME: ':scheme',
                HTTP2_HEADER_STATUS: ':status',
                HTTP2_HEADER_PROTOCOL: ':protocol',
                HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
                HTTP2_HEADER_EXPECT: 'expect',
                NGHTTP2_NO_ERROR: 0,
                NGHTTP2_REFUSED_STREAM: 7,
            },
        },
    };
}

; 






async function createHttpClient(options) {
    const { timeoutMs, retries, proxy, log, random = Math.random } = options;
    const cut = (0,secret .sO)(options.apiKey ?? '');
    const sleep = options.sleep ?? ((ms, signal) => (0,promises_.setTimeout)(ms, undefined, signal && { signal }));
    const dispatcher = proxy ? await createProxyAgent(proxy.url, { timeoutMs }) : createAgent({ timeoutMs });
    function attempt(req) {
        return withDeadline(answer(req), timeoutMs);
    }
    async function answer(req) {
        const response = await request(req.url, {
            method: req.method,
            headers: req.headers,
            body: req.body,
            dispatcher,
            signal: AbortSignal.timeout(timeoutMs),
        });
        const { text, truncated } = await readPrefix(response.body, constants .xu.answerBytes);
        return {
            status: response.statusCode,
            contentType: headerValue(response.headers['content-type']) ?? '',
            location: headerValue(response.headers.location),
            contentEncoding: headerValue(response.headers['content-encoding']),
            retryAfter: headerValue(response.headers['retry-after']),
            text,
            truncated,
        };
    }
    async function send(req, signal) {
        const label = `${req.method} ${req.url.href}`;
        log.debug(`${label} ${req.body}`);
        for (let retry = 0;; retry++) {
            let outcome;
            let what;
            let waitMs;
            let last;
            const final = () => retry >= retries || signal?.aborted === true;
            try {
                const response = await attempt(req);
                log.debug(() => `${label} -> HTTP ${response.status} ${cut(response.text, constants .xu.detailLength)}`);
                outcome = { kind: 'response', status: response.status };
                if (response.status < 300 || final() || !isRetryable(req.method, outcome))
                    return response;
                what = `HTTP ${response.status}`;
                waitMs = retryAfterMs(response.retryAfter);
                last = () => response;
            }
            catch (error) {
                const failure = (0,network_error .g)(error, req.url.host, proxy, options.serviceAddress);
                outcome = { kind: 'network', cause: failure.cause };
                log.debug(`${label} -> ${failure.cause}: ${String(error)}`);
                if (final() || !isRetryable(req.method, outcome)) {
                    const text = req.method === 'POST' && mayHaveArrived(outcome)
                        ? `${failure.text}; it may have reached the service, so it is not sent again`
                        : failure.text;
                    throw new network_error .D(text, failure.cause, { cause: error });
                }
                what = failure.text;
                last = () => {
                    throw new network_error .D(failure.text, failure.cause, { cause: error });
                };
            }
            const delay = waitMs ?? backoffMs(retry, random);
            log.info(`${label}: ${what}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${retries})`);
            await sleep(delay, signal).catch(() => undefined);
            if (signal?.aborted)
                return last();
        }
    }
    const close = () => {
        dispatcher.destroy().catch(() => undefined);
        return Promise.resolve();
    };
    return { send, close };
}
function withDeadline(work, ms) {
    let timer;
    const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new DOMException('The attempt took longer than its timeout', 'TimeoutError')), ms);
        timer.unref();
    });
    work.catch(() => undefined);
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
async function readPrefix(body, limit) {
    const chunks = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of body) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > limit) {
            truncated = true;
            break;
        }
    }
    return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated };
}
function headerValue(value) {
    return Array.isArray(value) ? value[0] : value;
}


  })

};
;