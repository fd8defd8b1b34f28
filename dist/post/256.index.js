export const id = 256;
export const ids = [256];
export const modules = {

/***/ 256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createHttpClient: () => (/* binding */ createHttpClient)
});

// UNUSED EXPORTS: NetworkError

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: ./node_modules/undici/index.js
var undici = __webpack_require__(6752);
;// CONCATENATED MODULE: ./src/retry.ts
// When to try a request again, and how long to wait first. Pure, so the policy is testable as a table.
const PATCH_RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
// A create is retried only where the service cannot have created anything, so no deployment is
// ever recorded twice: it was never reached, or it said "not now" (429, 503).
const POST_RETRY_STATUSES = new Set([429, 503]);
const POST_RETRY_CAUSES = new Set(['refused', 'dns']);
function isRetryable(method, outcome) {
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
/** Names a network error by what it means for a retry; undici nests the system error in `cause`. */
function networkCause(error) {
    const codes = errorChain(error).map((e) => `${e.code ?? ''} ${e.name ?? ''}`);
    const has = (pattern) => codes.some((code) => pattern.test(code));
    if (has(/ECONNREFUSED/))
        return 'refused';
    if (has(/ENOTFOUND|EAI_AGAIN|EAI_NONAME/))
        return 'dns';
    if (has(/TimeoutError|AbortError|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/))
        return 'timeout';
    if (has(/ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED/))
        return 'reset';
    return 'other';
}
function errorChain(error) {
    const chain = [];
    let current = error;
    while (current && typeof current === 'object' && chain.length < 5) {
        const { code, name, cause } = current;
        chain.push({ code, name });
        current = cause;
    }
    return chain;
}

;// CONCATENATED MODULE: ./src/http.ts
// One request to the service: a timeout on every attempt, retries as retry.ts allows, and the
// runner's HTTP(S)_PROXY / NO_PROXY honoured.



/** The request got no HTTP answer: nothing reached the service, or no reply came back in time. */
class NetworkError extends Error {
    name = 'NetworkError';
}
const CAUSE_TEXT = {
    refused: 'connection refused',
    dns: 'host name not found',
    timeout: 'no answer in time',
    reset: 'connection closed before an answer',
    other: 'network error',
};
function createHttpClient(options) {
    const { timeoutMs, retries, log } = options;
    // Reads http_proxy / https_proxy / no_proxy (either case), as the runner sets them.
    const dispatcher = new undici/* EnvHttpProxyAgent */.J2();
    async function attempt(req) {
        const response = await (0,undici/* request */.Em)(req.url, {
            method: req.method,
            headers: req.headers,
            body: req.body,
            dispatcher,
            signal: AbortSignal.timeout(timeoutMs),
        });
        const retryAfter = response.headers['retry-after'];
        return {
            status: response.statusCode,
            contentType: String(response.headers['content-type'] ?? ''),
            text: await response.body.text(),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
        };
    }
    async function send(req) {
        const label = `${req.method} ${req.url.href}`;
        log.debug(`${label} ${req.body}`);
        for (let retry = 0;; retry++) {
            let outcome;
            let waitMs;
            try {
                const response = await attempt(req);
                log.debug(`${label} -> HTTP ${response.status} ${response.text}`);
                outcome = { kind: 'response', status: response.status };
                if (response.status < 300 || retry >= retries || !isRetryable(req.method, outcome))
                    return response;
                waitMs = retryAfterMs(response.retryAfter);
            }
            catch (error) {
                const cause = networkCause(error);
                outcome = { kind: 'network', cause };
                log.debug(`${label} -> ${cause}: ${String(error)}`);
                if (retry >= retries || !isRetryable(req.method, outcome)) {
                    throw new NetworkError(`${CAUSE_TEXT[cause]} (${req.url.host})`);
                }
            }
            const delay = waitMs ?? backoffMs(retry);
            const what = outcome.kind === 'response' ? `HTTP ${outcome.status}` : CAUSE_TEXT[outcome.cause];
            log.info(`${label}: ${what}; retrying in ${(delay / 1000).toFixed(1)} s (retry ${retry + 1} of ${retries})`);
            await (0,promises_.setTimeout)(delay);
        }
    }
    return { send, close: () => dispatcher.close() };
}


/***/ })

};
