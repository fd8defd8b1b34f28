export const id = 256;
export const ids = [256];
export const modules = {

/***/ 256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createHttpClient: () => (/* binding */ createHttpClient)
});

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
// EXTERNAL MODULE: ./src/constants.ts
var constants = __webpack_require__(7242);
// EXTERNAL MODULE: ./src/network-error.ts
var network_error = __webpack_require__(46);
;// CONCATENATED MODULE: ./src/retry.ts
// When to try a request again, and how long to wait first. Pure, so the policy is testable as a table.
const PATCH_RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
// A create is retried only where the service cannot have created anything, so no deployment is
// ever recorded twice: it was never reached, or it said "not now" (429, 503).
const POST_RETRY_STATUSES = new Set([429, 503]);
const POST_RETRY_CAUSES = new Set(['refused', 'dns', 'proxy-refused']);
const NEVER_RETRY_CAUSES = new Set(['tls', 'proxy-auth']);
function isRetryable(method, outcome) {
    if (outcome.kind === 'network' && NEVER_RETRY_CAUSES.has(outcome.cause))
        return false;
    if (method === 'PATCH')
        return outcome.kind === 'network' || PATCH_RETRY_STATUSES.has(outcome.status);
    return outcome.kind === 'network' ? POST_RETRY_CAUSES.has(outcome.cause) : POST_RETRY_STATUSES.has(outcome.status);
}
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
/** The longest `Retry-After` honoured: a reporter must not hold a deployment job for minutes. */
const RETRY_AFTER_CAP_MS = 10_000;
/** Exponential backoff with full jitter before retry number `retry` (0 for the first retry). */
function backoffMs(retry, random = Math.random) {
    return Math.round(Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry) * random());
}
/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`, capped; undefined if absent or unreadable. */
function retryAfterMs(header, now = Date.now()) {
    if (!header)
        return undefined;
    const value = header.trim();
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
    if (Number.isNaN(ms))
        return undefined;
    return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

;// CONCATENATED MODULE: ./src/http.ts
// One request to the service: a timeout on every attempt, retries as retry.ts allows, the proxy
// proxy.ts chose, and an answer read only up to a bound.





function createHttpClient(options) {
    const { timeoutMs, retries, proxy, log, sleep = (ms) => (0,promises_.setTimeout)(ms), random = Math.random } = options;
    const dispatcher = proxy ? new undici/* ProxyAgent */.kT(proxy.url.href) : new undici/* Agent */.g6();
    async function attempt(req) {
        const response = await (0,undici/* request */.Em)(req.url, {
            method: req.method,
            headers: req.headers,
            body: req.body,
            dispatcher,
            signal: AbortSignal.timeout(timeoutMs),
        });
        const { text, truncated } = await readPrefix(response.body, constants/* Limits */.xu.answerBytes);
        return {
            status: response.statusCode,
            contentType: headerValue(response.headers['content-type']) ?? '',
            location: headerValue(response.headers.location),
            retryAfter: headerValue(response.headers['retry-after']),
            text,
            truncated,
        };
    }
    async function send(req) {
        const label = `${req.method} ${req.url.href}`;
        log.debug(`${label} ${req.body}`);
        for (let retry = 0;; retry++) {
            let outcome;
            let what;
            let waitMs;
            try {
                const response = await attempt(req);
                log.debug(`${label} -> HTTP ${response.status} ${response.text.slice(0, 2000)}`);
                outcome = { kind: 'response', status: response.status };
                if (response.status < 300 || retry >= retries || !isRetryable(req.method, outcome))
                    return response;
                what = `HTTP ${response.status}`;
                waitMs = retryAfterMs(response.retryAfter);
            }
            catch (error) {
                const failure = (0,network_error/* describeNetworkError */.g)(error, req.url.host, proxy);
                outcome = { kind: 'network', cause: failure.cause };
                log.debug(`${label} -> ${failure.cause}: ${String(error)}`);
                if (retry >= retries || !isRetryable(req.method, outcome))
                    throw new network_error/* NetworkError */.D(failure.text, { cause: error });
                what = failure.text;
            }
            const delay = waitMs ?? backoffMs(retry, random);
            log.info(`${label}: ${what}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${retries})`);
            await sleep(delay);
        }
    }
    return { send, close: () => dispatcher.close() };
}
/** The first `limit` bytes of a body as text; the rest is never read (the connection is closed). */
async function readPrefix(body, limit) {
    const chunks = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of body) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > limit) {
            truncated = true;
            break; // ends the iteration, which destroys the stream
        }
    }
    return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated };
}
function headerValue(value) {
    return Array.isArray(value) ? value[0] : value;
}


/***/ })

};
