/******/ (() => { // webpackBootstrap
/******/ 	"use strict";
/******/ 	var __webpack_modules__ = ({

/***/ 2851:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   C1: () => (/* binding */ DeploymentType),
/* harmony export */   t1: () => (/* binding */ DefaultEnvironment),
/* harmony export */   wB: () => (/* binding */ Settings),
/* harmony export */   xu: () => (/* binding */ Limits)
/* harmony export */ });
/* unused harmony exports SettingDefaults, DeploymentStatuses */
const Settings = {
    ApiKey: 'api-key',
    BaseUrl: 'base-url',
    ArtifactId: 'artifact-id',
    ArtifactName: 'artifact-name',
    Version: 'version',
    Environment: 'environment',
    CommitSha: 'commit-sha',
    User: 'user',
    Branch: 'branch',
    Changelog: 'changelog',
    Description: 'description',
    Link: 'link',
    Type: 'type',
    Status: 'status',
    DeploymentId: 'deployment-id',
    FailOnError: 'fail-on-error',
    TimeoutSeconds: 'timeout-seconds',
    Retries: 'retries',
    AllowInsecureHttp: 'allow-insecure-http',
    DryRun: 'dry-run',
};
const SettingDefaults = {
    [Settings.Type]: 'SIMPLE',
    [Settings.FailOnError]: 'false',
    [Settings.TimeoutSeconds]: '10',
    [Settings.Retries]: '3',
    [Settings.AllowInsecureHttp]: 'false',
    [Settings.DryRun]: 'false',
};
const DeploymentStatuses = (/* unused pure expression or super */ null && (['STARTED', 'SUCCEEDED', 'FAILED']));
const DeploymentType = 'SIMPLE';
const DefaultEnvironment = 'Production';
const Limits = {
    idsPerStep: 100,
    requestsInFlight: 8,
    idLength: 128,
    eventFileBytes: 25 * 1024 * 1024,
    answerBytes: 64 * 1024,
    detailLength: 2000,
    detailEntries: 20,
    detailEntryLength: 300,
    quotedValueLength: 100,
    summaryCellLength: 200,
    summaryBytes: 256 * 1024,
    timeoutSeconds: 600,
    retries: 10,
    retryAfterMs: 10_000,
    backoffBaseMs: 500,
    backoffCapMs: 8_000,
};


/***/ }),

/***/ 3647:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   D: () => (/* binding */ NetworkError),
/* harmony export */   g: () => (/* binding */ describeNetworkError)
/* harmony export */ });
class NetworkError extends Error {
    name = 'NetworkError';
}
const CERTIFICATE_PROBLEMS = [
    [/CERT_HAS_EXPIRED/, 'has expired'],
    [/CERT_NOT_YET_VALID/, 'is not valid yet'],
    [/SELF_SIGNED/, 'is self-signed (no trusted authority issued it)'],
    [/UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT)/, 'is issued by an authority this runner does not trust'],
    [/ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/, 'is for another host name'],
    [/CERT_/, 'was refused'],
];
function describeNetworkError(error, host, proxy) {
    const chain = errorChain(error);
    const has = (pattern) => chain.some((link) => pattern.test(`${link.code} ${link.name} ${link.message}`));
    const code = chain.map((link) => link.code).find((c) => c !== '') ?? '';
    const through = proxy ? ` through the proxy ${proxyName(proxy)}` : '';
    const proxyStatus = /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(chain.map((l) => l.message).join(' '));
    if (proxy && proxyStatus?.[1] === '407') {
        return {
            cause: 'proxy-auth',
            text: `the proxy ${proxyName(proxy)} asks for credentials (HTTP 407): put them in ${proxy.variable} as http://user:password@host:port`,
        };
    }
    if (proxy && proxyStatus) {
        return {
            cause: 'proxy-refused',
            text: `the proxy ${proxyName(proxy)} would not connect to ${host} (HTTP ${proxyStatus[1]})`,
        };
    }
    const certificate = CERTIFICATE_PROBLEMS.find(([pattern]) => has(pattern));
    if (certificate) {
        const whose = proxy?.url.protocol === 'https:' ? `${host} (or of the proxy ${proxyName(proxy)})` : host;
        return {
            cause: 'tls',
            text: `the TLS certificate of ${whose} ${certificate[1]} (${code || 'TLS'}). If the service uses a private certificate authority, point NODE_EXTRA_CA_CERTS at its certificate`,
        };
    }
    if (has(/ERR_SSL|ERR_TLS|EPROTO|UND_ERR_PRX_TLS/))
        return { cause: 'tls', text: `the TLS handshake with ${host} failed (${code})` };
    if (has(/ECONNREFUSED/)) {
        return proxy
            ? { cause: 'refused', text: `cannot reach the proxy ${proxyName(proxy)}: connection refused` }
            : { cause: 'refused', text: `connection refused (${host})` };
    }
    if (has(/ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL/)) {
        return proxy
            ? { cause: 'dns', text: `cannot reach the proxy ${proxyName(proxy)}: host name not found` }
            : { cause: 'dns', text: `host name not found (${host})` };
    }
    if (has(/TimeoutError|AbortError|UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT|ETIMEDOUT/)) {
        return { cause: 'timeout', text: `no answer in time (${host}${through})` };
    }
    if (has(/ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ProxyConnectionError/)) {
        return { cause: 'reset', text: `connection closed before an answer (${host}${through})` };
    }
    return { cause: 'other', text: `network error${code ? ` ${code}` : ''} (${host}${through})` };
}
function proxyName(proxy) {
    return `${proxy.variable} (${proxy.url.origin})`;
}
function errorChain(error) {
    const chain = [];
    let current = error;
    while (current && typeof current === 'object' && chain.length < 6) {
        const { code, name, message, cause } = current;
        chain.push({
            code: typeof code === 'string' ? code : '',
            name: typeof name === 'string' ? name : '',
            message: typeof message === 'string' ? message : '',
        });
        current = cause;
    }
    return chain;
}


/***/ }),

/***/ 9439:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ZD: () => (/* binding */ escapeHtml),
/* harmony export */   ZH: () => (/* binding */ capitalize),
/* harmony export */   g1: () => (/* binding */ bugLines),
/* harmony export */   hD: () => (/* binding */ quote),
/* harmony export */   ml: () => (/* binding */ shorten),
/* harmony export */   vj: () => (/* binding */ TRUNCATED)
/* harmony export */ });
/* harmony import */ var _constants_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2851);

function shorten(text, max, mark = '…') {
    return text.length > max ? `${text.slice(0, max)}${mark}` : text;
}
function quote(value, max = _constants_js__WEBPACK_IMPORTED_MODULE_0__/* .Limits */ .xu.quotedValueLength) {
    return `'${shorten(value, max)}'`;
}
const TRUNCATED = '… (truncated)';
function capitalize(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
}
function bugLines(what, error) {
    const trace = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return [`${what} (a bug of report-deployment: please report it):`, ...trace.split('\n')];
}
function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}


/***/ }),

/***/ 8628:
/***/ ((module) => {

module.exports = require("./node-http2.js");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = require("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = require("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = require("node:buffer");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = require("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = require("node:diagnostics_channel");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = require("node:events");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = require("node:http");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = require("node:net");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = require("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = require("node:querystring");

/***/ }),

/***/ 99:
/***/ ((module) => {

module.exports = require("node:sqlite");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = require("node:stream");

/***/ }),

/***/ 7830:
/***/ ((module) => {

module.exports = require("node:stream/web");

/***/ }),

/***/ 8500:
/***/ ((module) => {

module.exports = require("node:timers/promises");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = require("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = require("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = require("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = require("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = require("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = require("node:zlib");

/***/ })

/******/ 	});
/************************************************************************/
/******/ 	// The module cache
/******/ 	var __webpack_module_cache__ = {};
/******/ 	
/******/ 	// The require function
/******/ 	function __nccwpck_require__(moduleId) {
/******/ 		// Check if module is in cache
/******/ 		var cachedModule = __webpack_module_cache__[moduleId];
/******/ 		if (cachedModule !== undefined) {
/******/ 			return cachedModule.exports;
/******/ 		}
/******/ 		// Create a new module (and put it into the cache)
/******/ 		var module = __webpack_module_cache__[moduleId] = {
/******/ 			id: moduleId,
/******/ 			loaded: false,
/******/ 			exports: {}
/******/ 		};
/******/ 	
/******/ 		// Execute the module function
/******/ 		var threw = true;
/******/ 		try {
/******/ 			__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 			threw = false;
/******/ 		} finally {
/******/ 			if(threw) delete __webpack_module_cache__[moduleId];
/******/ 		}
/******/ 	
/******/ 		// Flag the module as loaded
/******/ 		module.loaded = true;
/******/ 	
/******/ 		// Return the exports of the module
/******/ 		return module.exports;
/******/ 	}
/******/ 	
/******/ 	// expose the modules object (__webpack_modules__)
/******/ 	__nccwpck_require__.m = __webpack_modules__;
/******/ 	
/************************************************************************/
/******/ 	/* webpack/runtime/asset-relocator-loader */
/******/ 	if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = __dirname + "/";
/******/ 	
/******/ 	/* webpack/runtime/compat get default export */
/******/ 	(() => {
/******/ 		// getDefaultExport function for compatibility with non-harmony modules
/******/ 		__nccwpck_require__.n = (module) => {
/******/ 			var getter = module && module.__esModule ?
/******/ 				() => (module['default']) :
/******/ 				() => (module);
/******/ 			__nccwpck_require__.d(getter, { a: getter });
/******/ 			return getter;
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/create fake namespace object */
/******/ 	(() => {
/******/ 		var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 		var leafPrototypes;
/******/ 		// create a fake namespace object
/******/ 		// mode & 1: value is a module id, require it
/******/ 		// mode & 2: merge all properties of value into the ns
/******/ 		// mode & 4: return value when already ns object
/******/ 		// mode & 16: return value when it's Promise-like
/******/ 		// mode & 8|1: behave like require
/******/ 		__nccwpck_require__.t = function(value, mode) {
/******/ 			if(mode & 1) value = this(value);
/******/ 			if(mode & 8) return value;
/******/ 			if(typeof value === 'object' && value) {
/******/ 				if((mode & 4) && value.__esModule) return value;
/******/ 				if((mode & 16) && typeof value.then === 'function') return value;
/******/ 			}
/******/ 			var ns = Object.create(null);
/******/ 			__nccwpck_require__.r(ns);
/******/ 			var def = {};
/******/ 			leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 			for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 				Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 			}
/******/ 			def['default'] = () => (value);
/******/ 			__nccwpck_require__.d(ns, def);
/******/ 			return ns;
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/define property getters */
/******/ 	(() => {
/******/ 		// define getter functions for harmony exports
/******/ 		__nccwpck_require__.d = (exports, definition) => {
/******/ 			for(var key in definition) {
/******/ 				if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 					Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 				}
/******/ 			}
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/ensure chunk */
/******/ 	(() => {
/******/ 		__nccwpck_require__.f = {};
/******/ 		// This file contains only the entry chunk.
/******/ 		// The chunk loading function for additional chunks
/******/ 		__nccwpck_require__.e = (chunkId) => {
/******/ 			return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 				__nccwpck_require__.f[key](chunkId, promises);
/******/ 				return promises;
/******/ 			}, []));
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/get javascript chunk filename */
/******/ 	(() => {
/******/ 		// This function allow to reference async chunks
/******/ 		__nccwpck_require__.u = (chunkId) => {
/******/ 			// return url for filenames based on template
/******/ 			return "" + chunkId + ".index.js";
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/hasOwnProperty shorthand */
/******/ 	(() => {
/******/ 		__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/make namespace object */
/******/ 	(() => {
/******/ 		// define __esModule on exports
/******/ 		__nccwpck_require__.r = (exports) => {
/******/ 			if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 				Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 			}
/******/ 			Object.defineProperty(exports, '__esModule', { value: true });
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/node module decorator */
/******/ 	(() => {
/******/ 		__nccwpck_require__.nmd = (module) => {
/******/ 			module.paths = [];
/******/ 			if (!module.children) module.children = [];
/******/ 			return module;
/******/ 		};
/******/ 	})();
/******/ 	
/******/ 	/* webpack/runtime/require chunk loading */
/******/ 	(() => {
/******/ 		// no baseURI
/******/ 		
/******/ 		// object to store loaded chunks
/******/ 		// "1" means "loaded", otherwise not loaded yet
/******/ 		var installedChunks = {
/******/ 			792: 1
/******/ 		};
/******/ 		
/******/ 		// no on chunks loaded
/******/ 		
/******/ 		var installChunk = (chunk) => {
/******/ 			var moreModules = chunk.modules, chunkIds = chunk.ids, runtime = chunk.runtime;
/******/ 			for(var moduleId in moreModules) {
/******/ 				if(__nccwpck_require__.o(moreModules, moduleId)) {
/******/ 					__nccwpck_require__.m[moduleId] = moreModules[moduleId];
/******/ 				}
/******/ 			}
/******/ 			if(runtime) runtime(__nccwpck_require__);
/******/ 			for(var i = 0; i < chunkIds.length; i++)
/******/ 				installedChunks[chunkIds[i]] = 1;
/******/ 		
/******/ 		};
/******/ 		
/******/ 		// require() chunk loading for javascript
/******/ 		__nccwpck_require__.f.require = (chunkId, promises) => {
/******/ 			// "1" is the signal for "already loaded"
/******/ 			if(!installedChunks[chunkId]) {
/******/ 				if(true) { // all chunks have JS
/******/ 					installChunk(require("./" + __nccwpck_require__.u(chunkId)));
/******/ 				} else installedChunks[chunkId] = 1;
/******/ 			}
/******/ 		};
/******/ 		
/******/ 		// no external install chunk
/******/ 		
/******/ 		// no HMR
/******/ 		
/******/ 		// no HMR manifest
/******/ 	})();
/******/ 	
/************************************************************************/
var __webpack_exports__ = {};
// ESM COMPAT FLAG
__nccwpck_require__.r(__webpack_exports__);

// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  main: () => (/* binding */ main),
  post: () => (/* binding */ post)
});

// EXTERNAL MODULE: ./core/constants.ts
var constants = __nccwpck_require__(2851);
;// CONCATENATED MODULE: ./core/deployment.ts

const FieldSettings = {
    version: constants/* Settings */.wB.Version,
    environment: constants/* Settings */.wB.Environment,
    commitSha: constants/* Settings */.wB.CommitSha,
    user: constants/* Settings */.wB.User,
    branch: constants/* Settings */.wB.Branch,
    changelog: constants/* Settings */.wB.Changelog,
    description: constants/* Settings */.wB.Description,
    link: constants/* Settings */.wB.Link,
};
const FieldNames = Object.keys(FieldSettings);
function resolveFields(given, defaults, naming, problems) {
    const pick = (field) => {
        const setting = FieldSettings[field];
        if (given[field])
            return { value: given[field], source: naming.setting(setting) };
        const fallback = defaults.values[field];
        return fallback?.value ? fallback : undefined;
    };
    const required = (field) => {
        const value = pick(field);
        if (!value)
            problems.add(naming.setting(FieldSettings[field]), defaults.missing(field));
        return value ?? { value: '', source: '' };
    };
    const commitSha = required('commitSha');
    const resolved = {
        version: pick('version') ?? { value: commitSha.value, source: 'the commit' },
        environment: pick('environment') ?? { value: constants/* DefaultEnvironment */.t1, source: "the service's default environment" },
        commitSha,
        user: required('user'),
        branch: required('branch'),
    };
    for (const field of ['changelog', 'description', 'link']) {
        const value = pick(field);
        if (value)
            resolved[field] = value;
    }
    return resolved;
}
function createBody(artifact, fields, status) {
    const optional = {};
    for (const field of ['changelog', 'description', 'link']) {
        const value = fields[field]?.value;
        if (value)
            optional[field] = value;
    }
    return {
        ...artifact,
        version: fields.version.value,
        environment: fields.environment.value,
        commitSha: fields.commitSha.value,
        user: fields.user.value,
        branch: fields.branch.value,
        type: constants/* DeploymentType */.C1,
        ...optional,
        status,
    };
}
function artifactLabel(artifact) {
    return 'artifactId' in artifact ? `artifact ${artifact.artifactId}` : `artifact '${artifact.artifactName}'`;
}

;// CONCATENATED MODULE: ./core/json.ts
class JsonNumber {
    source;
    constructor(source) {
        this.source = source;
    }
    toString() {
        return this.source;
    }
    toJSON() {
        return JSON.rawJSON(this.source);
    }
}
function parseJsonLosslessly(text) {
    return JSON.parse(text, (_key, value, context) => typeof value === 'number' ? new JsonNumber(context?.source ?? String(value)) : value);
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function field(value, name) {
    return isObject(value) ? value[name] : undefined;
}

;// CONCATENATED MODULE: ./ci/github.ts



const TAG_PREFIX = 'refs/tags/';
const BRANCH_PREFIX = 'refs/heads/';
function githubDefaults(ctx) {
    const facts = eventFacts(ctx.payload);
    const deployment = DEPLOYMENT_EVENTS.has(ctx.eventName) ? deploymentFacts(ctx.payload) : undefined;
    const values = {
        commitSha: defaultCommitSha(ctx, facts),
        version: sourced(refTag(ctx.env.GITHUB_REF ?? ''), 'the tag (GITHUB_REF)'),
        user: ctx.env.GITHUB_TRIGGERING_ACTOR
            ? sourced(ctx.env.GITHUB_TRIGGERING_ACTOR, 'GITHUB_TRIGGERING_ACTOR')
            : sourced(ctx.env.GITHUB_ACTOR ?? '', 'GITHUB_ACTOR'),
        branch: defaultBranch(ctx, facts),
        changelog: defaultChangelog(ctx, facts),
        description: sourced(defaultDescription(ctx), 'the workflow run'),
        link: defaultLink(ctx),
        ...(deployment ? deploymentDefaults(ctx, deployment) : {}),
    };
    return { values, missing: DEPLOYMENT_EVENTS.has(ctx.eventName) ? missingFromDeployment : missing };
}
const MISSING_FROM = {
    commitSha: 'GITHUB_SHA',
    user: 'GITHUB_ACTOR',
    branch: 'GITHUB_REF',
};
function missing(name) {
    const variable = MISSING_FROM[name] ?? 'the run';
    return `is empty and ${variable} gives no default (not on a GitHub runner?). Set \`${FieldSettings[name]}\`.`;
}
const MISSING_FROM_DEPLOYMENT = {
    commitSha: 'deployment.sha',
    user: 'deployment.creator',
    branch: 'deployment.ref',
};
function missingFromDeployment(name) {
    const from = MISSING_FROM_DEPLOYMENT[name];
    if (!from)
        return missing(name);
    const variable = MISSING_FROM[name] ?? 'the run';
    return `is empty, and neither the event's ${from} nor ${variable} gives a default. Set \`${FieldSettings[name]}\`.`;
}
function sourced(value, source) {
    return { value, source };
}
function eventFacts(payload) {
    const pullRequest = field(payload, 'pull_request');
    const workflowRun = field(payload, 'workflow_run');
    const head = field(pullRequest, 'head');
    return {
        compare: github_text(field(payload, 'compare')),
        baseRef: github_text(field(payload, 'base_ref')),
        pullRequestUrl: github_text(field(pullRequest, 'html_url')),
        pullRequestHeadSha: github_text(field(head, 'sha')),
        pullRequestHeadRef: github_text(field(head, 'ref')),
        runHeadSha: github_text(field(workflowRun, 'head_sha')),
        runHeadBranch: github_text(field(workflowRun, 'head_branch')),
        releaseUrl: github_text(field(field(payload, 'release'), 'html_url')),
    };
}
function github_text(value) {
    return typeof value === 'string' ? value : '';
}
function isPullRequestEvent(eventName) {
    return eventName.startsWith('pull_request');
}
function defaultCommitSha({ eventName, env }, facts) {
    if (isPullRequestEvent(eventName) && facts.pullRequestHeadSha) {
        return sourced(facts.pullRequestHeadSha, "the pull request's head (event)");
    }
    if (eventName === 'workflow_run' && facts.runHeadSha)
        return sourced(facts.runHeadSha, 'workflow_run.head_sha (event)');
    return sourced(env.GITHUB_SHA ?? '', 'GITHUB_SHA');
}
function refTag(ref) {
    return ref.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
}
function defaultBranch({ eventName, env }, facts) {
    if (isPullRequestEvent(eventName)) {
        if (facts.pullRequestHeadRef)
            return sourced(facts.pullRequestHeadRef, "the pull request's head (event)");
        if (env.GITHUB_HEAD_REF)
            return sourced(env.GITHUB_HEAD_REF, 'GITHUB_HEAD_REF');
    }
    if (eventName === 'workflow_run' && facts.runHeadBranch) {
        return sourced(facts.runHeadBranch, 'workflow_run.head_branch (event)');
    }
    const ref = env.GITHUB_REF ?? '';
    if (ref.startsWith(BRANCH_PREFIX))
        return sourced(ref.slice(BRANCH_PREFIX.length), 'GITHUB_REF');
    if (ref.startsWith(TAG_PREFIX) && facts.baseRef) {
        return sourced(facts.baseRef.replace(BRANCH_PREFIX, ''), 'base_ref (event)');
    }
    if (env.GITHUB_REF_NAME)
        return sourced(env.GITHUB_REF_NAME, 'GITHUB_REF_NAME');
    return sourced(refTag(ref) || ref, 'GITHUB_REF');
}
function defaultChangelog({ eventName }, facts) {
    if (eventName === 'push')
        return sourced(facts.compare, 'the compare URL (event)');
    if (isPullRequestEvent(eventName))
        return sourced(facts.pullRequestUrl, "the pull request's URL (event)");
    if (eventName === 'release')
        return sourced(facts.releaseUrl, "the release's URL (event)");
    return sourced('', '');
}
function defaultDescription({ eventName, env }) {
    const run = env.GITHUB_RUN_NUMBER ? ` #${env.GITHUB_RUN_NUMBER}` : '';
    const attempt = env.GITHUB_RUN_ATTEMPT ? ` (attempt ${env.GITHUB_RUN_ATTEMPT})` : '';
    const parts = [`${env.GITHUB_WORKFLOW || 'workflow'}${run}${attempt}`];
    if (env.GITHUB_JOB)
        parts.push(`job ${env.GITHUB_JOB}`);
    if (eventName)
        parts.push(`on ${eventName}`);
    return parts.join(', ');
}
function defaultLink({ env, checkRunId }) {
    const { GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
    if (!repo || !runId)
        return sourced('', '');
    const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const run = `${server}/${repo}/actions/runs/${runId}`;
    if (/^\d+$/.test(checkRunId))
        return sourced(`${run}/job/${checkRunId}`, "the job's page");
    return sourced(`${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`, "the run attempt's page");
}
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);
function secretsWithheld({ eventName, payload, env, }) {
    if (env.GITHUB_ACTOR === 'dependabot[bot]') {
        return "GitHub gives a workflow run that Dependabot started Dependabot's secrets only";
    }
    if (!PULL_REQUEST_EVENTS.has(eventName))
        return undefined;
    const pullRequest = field(payload, 'pull_request');
    const head = field(field(pullRequest, 'head'), 'repo');
    const base = field(field(pullRequest, 'base'), 'repo');
    const headName = github_text(field(head, 'full_name'));
    const baseName = github_text(field(base, 'full_name'));
    const fromFork = (pullRequest !== undefined && head === null) || (headName !== '' && baseName !== '' && headName !== baseName);
    return fromFork ? 'GitHub gives a workflow run for a pull request from a fork no secrets' : undefined;
}
const DEPLOYMENT_EVENTS = new Set(['deployment', 'deployment_status']);
function isDeploymentEvent(eventName) {
    return DEPLOYMENT_EVENTS.has(eventName);
}
function deploymentEventStatus({ eventName, payload }, naming) {
    if (eventName === 'deployment_status') {
        return {
            word: github_text(field(field(payload, 'deployment_status'), 'state')),
            from: "the event's `deployment_status.state`",
        };
    }
    if (eventName === 'deployment') {
        return {
            nothing: `Nothing recorded: a \`deployment\` event comes when a deployment is created, before it has a state. Run this workflow on \`deployment_status\` to record each deployment once it has succeeded or failed, or set ${naming.assignment(constants/* Settings */.wB.Status)} to record it here.`,
        };
    }
    return undefined;
}
function deploymentFacts(payload) {
    const deployment = field(payload, 'deployment');
    if (!isObject(deployment))
        return undefined;
    const status = field(payload, 'deployment_status');
    const appName = (of) => github_text(field(field(of, 'performed_via_github_app'), 'name'));
    return {
        sha: github_text(deployment.sha),
        ref: github_text(deployment.ref),
        environment: github_text(deployment.environment),
        description: github_text(deployment.description),
        task: github_text(deployment.task),
        id: typeof deployment.id === 'number' && Number.isSafeInteger(deployment.id) ? String(deployment.id) : '',
        creator: github_text(field(deployment.creator, 'login')),
        app: appName(status) || appName(deployment),
        payloadVersion: payloadVersion(deployment.payload),
        state: github_text(field(status, 'state')),
        statusEnvironment: github_text(field(status, 'environment')),
        statusDescription: github_text(field(status, 'description')),
        statusUrls: ['log_url', 'target_url', 'environment_url'].map((name) => github_text(field(status, name))),
    };
}
function payloadVersion(payload) {
    let value = payload;
    if (typeof value === 'string') {
        try {
            value = JSON.parse(value);
        }
        catch {
            return '';
        }
    }
    const version = github_text(field(value, 'version'));
    return version.trim() === '' ? '' : version;
}
function deployedRef(ref, sha, githubRef) {
    if (ref === '')
        return undefined;
    if (ref.startsWith(TAG_PREFIX))
        return { tag: ref.slice(TAG_PREFIX.length) };
    if (ref.startsWith(BRANCH_PREFIX))
        return { branch: ref.slice(BRANCH_PREFIX.length) };
    if (githubRef === `${TAG_PREFIX}${ref}`)
        return { tag: ref };
    if (githubRef === `${BRANCH_PREFIX}${ref}`)
        return { branch: ref };
    const hex = /^[0-9a-f]{7,64}$/i.test(ref);
    const isCommit = sha ? hex && sha.toLowerCase().startsWith(ref.toLowerCase()) : hex && ref.length >= 40;
    return isCommit ? { commit: ref } : { branch: ref };
}
function deploymentDefaults({ env }, facts) {
    const values = {};
    const set = (name, value, source) => {
        if (value.trim() !== '')
            values[name] = sourced(value, source);
    };
    set('commitSha', facts.sha, 'deployment.sha (event)');
    const ref = deployedRef(facts.ref, facts.sha, env.GITHUB_REF ?? '');
    if (ref && 'branch' in ref)
        set('branch', ref.branch, 'deployment.ref (event)');
    if (ref && 'tag' in ref)
        set('branch', ref.tag, 'the tag (deployment.ref, event)');
    if (ref && 'commit' in ref)
        set('branch', facts.sha || ref.commit, 'deployment.ref (event: a commit, no branch)');
    values.version = sourced('', '');
    if (ref && 'tag' in ref)
        set('version', ref.tag, 'the tag (deployment.ref, event)');
    set('version', facts.payloadVersion, "the deployment's payload (event)");
    set('environment', facts.environment, 'deployment.environment (event)');
    set('environment', facts.statusEnvironment, 'deployment_status.environment (event)');
    set('user', facts.creator, 'deployment.creator (event)');
    const link = facts.statusUrls.find((url) => url.trim() !== '');
    if (link)
        set('link', link, "the deployment status's URL (event)");
    set('description', deploymentDescription(facts), 'the deployment and its status (event)');
    return values;
}
function deploymentDescription(facts) {
    const state = facts.state && facts.statusDescription ? `${facts.state}: ${facts.statusDescription}` : facts.state;
    const origin = ['GitHub deployment'];
    if (facts.id)
        origin.push(facts.id);
    if (facts.task && facts.task !== 'deploy')
        origin.push(`(${facts.task})`);
    if (facts.creator)
        origin.push(`by ${facts.creator}`);
    if (facts.app)
        origin.push(`via ${facts.app}`);
    return [facts.description, state, origin.join(' ')].filter((part) => part.trim() !== '').join('; ');
}

;// CONCATENATED MODULE: ./core/config-error.ts
class ConfigError extends Error {
    problems;
    constructor(subjectOrProblems, text = '') {
        const problems = typeof subjectOrProblems === 'string' ? [{ subject: subjectOrProblems, text }] : subjectOrProblems;
        super(problems.map(problemText).join('\n'));
        this.name = 'ConfigError';
        this.problems = problems;
    }
    get lines() {
        return this.problems.map(problemText);
    }
}
function problemText({ subject, text }) {
    return `${subject} ${text}`;
}
class ProblemCollector {
    problems = [];
    read(reader, fallback) {
        try {
            return reader();
        }
        catch (error) {
            if (!(error instanceof ConfigError))
                throw error;
            this.problems.push(...error.problems);
            return fallback;
        }
    }
    add(subject, text) {
        this.problems.push({ subject, text });
    }
    throwIfAny() {
        if (this.problems.length)
            throw new ConfigError(this.problems);
    }
}

// EXTERNAL MODULE: ./core/text.ts
var core_text = __nccwpck_require__(9439);
;// CONCATENATED MODULE: ./core/outcome.ts



const NOTHING_SENT = 'Dry run: nothing was sent.';
function describeStart(plan, results, options) {
    const { dryRun, startedAt, wording } = options;
    const note = (text) => ({ note: `Nothing to finish: ${text}` });
    switch (plan.kind) {
        case 'nothing':
            return describeNothing(plan, wording);
        case 'finish-later': {
            const { ids } = plan;
            if (dryRun) {
                const line = `Dry run: ${wording.finisher} would set ${deploymentsText(ids)} from ${wording.finishFrom}.`;
                return report({ lines: info(line, NOTHING_SENT), open: { dryRun, ids, count: ids.length } });
            }
            const line = `${(0,core_text/* capitalize */.ZH)(deploymentsText(ids))} will be set from ${wording.finishFrom} ${wording.finishWhen}.`;
            return report({ lines: info(line), ids, open: { dryRun, ids, startedAt } });
        }
        case 'update': {
            const { status } = plan;
            const { done, failures } = splitUpdates(results.updated ?? [], status);
            if (dryRun) {
                return report({
                    lines: info(NOTHING_SENT),
                    status,
                    open: note(`${wording.starter} already set the deployment status to ${status}.`),
                });
            }
            const line = done.length ? `${(0,core_text/* capitalize */.ZH)(deploymentsText(done))} set to ${status}.` : '';
            return report({
                lines: info(line),
                failures,
                summary: { heading: countHeading(done.length, plan.ids.length, 'updated'), lines: line ? [line] : [] },
                ids: done,
                status: done.length ? status : '',
                open: note(done.length
                    ? `${wording.starter} already set the deployment status to ${status}.`
                    : `${wording.starter} could not update the deployment.`),
            });
        }
        case 'create':
            return describeCreated(plan, results.created ?? [], options);
    }
}
function describeCreated(plan, results, { dryRun, startedAt, wording }) {
    const { status, finishLater } = plan;
    const given = `${wording.starter} was given status ${status}, so ${wording.finishFrom} is not reported.`;
    if (dryRun) {
        const later = `Dry run: ${wording.finisher} would set these deployments from ${wording.finishFrom}.`;
        return report({
            lines: info(finishLater ? later : '', NOTHING_SENT),
            status,
            open: finishLater ? { dryRun, count: plan.bodies.length } : { note: `Nothing to finish: ${given}` },
        });
    }
    const recorded = [];
    const lines = [];
    const failures = [];
    for (const result of results) {
        if ('id' in result) {
            recorded.push(result);
            lines.push({ text: `Recorded deployment ${result.id.text}: ${describeBody(result.body)} (${status}).` });
        }
        else {
            failures.push(prefixed(`Could not record the deployment of ${artifactLabel(result.body)}`, result.failure));
        }
    }
    const ids = recorded.map((row) => row.id);
    const open = ids.length === 0
        ? { note: `Nothing to finish: ${wording.starter} could not record a deployment.` }
        : finishLater
            ? { dryRun, ids, startedAt }
            : { note: `Nothing to finish: ${given}` };
    return report({
        lines,
        failures,
        summary: { heading: countHeading(ids.length, results.length, 'recorded'), lines: [] },
        recorded,
        ids,
        status: ids.length ? status : '',
        open,
    });
}
function describeNothing(plan, wording) {
    const said = (text, warning, heading, note) => report({
        lines: [{ text, warning }],
        summary: { heading, lines: [text] },
        open: { note: `Nothing to finish: ${note}` },
    });
    switch (plan.reason) {
        case 'skipped':
            return said(`Nothing recorded: status is '${plan.word}', so nothing was deployed.`, false, 'Deployment not recorded: skipped', `status was '${plan.word}', so nothing was recorded.`);
        case 'not-final':
            return said(`Nothing recorded: the deployment is '${plan.word}', not a final state. A workflow on \`deployment_status\` records it once its state is success, failure or error (a STARTED record now would stay unfinished beside that one).`, false, 'Deployment not recorded: not finished yet', `the deployment was '${plan.word}', so nothing was recorded.`);
        case 'not-yet':
            return said(plan.why, true, 'Deployment not recorded: no state yet', 'the deployment had no state yet, so nothing was recorded.');
        case 'no-ids': {
            const subject = wording.setting(constants/* Settings */.wB.DeploymentId);
            return said(`${subject} is an empty list: the job that started the deployment recorded none (see its log), so there is nothing to update.`, true, 'No deployment to update', `${subject} was an empty list.`);
        }
        case 'no-key':
            return said(plan.warning, true, 'Deployment not recorded: no API key', 'without an API key nothing was recorded.');
    }
}
function describeFinish(status, results, options) {
    const { dryRun, startedAt, placeholders } = options;
    if (dryRun) {
        const each = placeholders === 1 ? 'the deployment' : `each of the ${placeholders} deployments`;
        const stands = `({id} stands for the id of ${each} ${options.wording.starter} would have created.)`;
        return report({ lines: info(placeholders ? stands : '', NOTHING_SENT) });
    }
    const { done, failures } = splitUpdates(results, status);
    const after = startedAt > 0 ? ` after ${formatDuration(Date.now() - startedAt)}` : '';
    const line = done.length ? `${(0,core_text/* capitalize */.ZH)(deploymentsText(done))} set to ${status}${after}.` : '';
    const heading = failures.length ? 'Deployment status not fully reported' : `Deployment ${status.toLowerCase()}`;
    return report({
        lines: info(line),
        failures,
        summary: { heading, lines: line ? [line] : [] },
        ids: done,
        status: done.length ? status : '',
    });
}
function report(parts) {
    return { lines: [], failures: [], recorded: [], ids: [], status: '', ...parts };
}
function info(...texts) {
    return texts.filter((text) => text !== '').map((text) => ({ text }));
}
function splitUpdates(results, status) {
    const done = results.filter((result) => !result.failure).map((result) => result.id);
    const failures = results.flatMap((result) => result.failure ? [prefixed(`Could not set deployment ${result.id.text} to ${status}`, result.failure)] : []);
    return { done, failures };
}
function prefixed(what, failure) {
    const [first = '', ...rest] = failure;
    return [`${what}: ${first}`, ...rest];
}
function countHeading(done, asked, verb) {
    if (done === asked)
        return done === 1 ? `Deployment ${verb}` : `${done} deployments ${verb}`;
    return `${done} of ${asked} deployments ${verb}`;
}
function describeBody(body) {
    return `${artifactLabel(body)} version ${body.version} to ${body.environment}`;
}
function deploymentsText(ids) {
    return `${ids.length === 1 ? 'deployment' : 'deployments'} ${ids.map((id) => id.text).join(', ')}`;
}
function formatDuration(ms) {
    const seconds = Math.max(0, Math.round(ms / 1000));
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    if (h)
        return `${h}h ${m}m ${s}s`;
    return m ? `${m}m ${s}s` : `${s}s`;
}

;// CONCATENATED MODULE: ./core/log.ts
const CONTROLS = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const NAMED = { '\n': '\\n', '\r': '\\r' };
function showControls(line) {
    return line.replace(CONTROLS, (c) => {
        if (c === '\t')
            return c;
        const code = c.codePointAt(0) ?? 0;
        return NAMED[c] ?? (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`);
    });
}
function looksLikeCommand(line) {
    return /^\s*::/.test(line) || line.includes('##[');
}
function inertLines(line) {
    if (!looksLikeCommand(line))
        return [line];
    const token = crypto.randomUUID();
    return [`::stop-commands::${token}`, line, `::${token}::`];
}

;// CONCATENATED MODULE: ./core/ids.ts



const textId = (text) => ({ text, numeric: false });
function idFromJson(value) {
    if (value instanceof JsonNumber)
        return { text: value.source, numeric: true };
    if (typeof value === 'string')
        return textId(value);
    return undefined;
}
const FORBIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
function idProblem(text) {
    if (text.trim() === '')
        return 'is empty';
    if (text.length > constants/* Limits */.xu.idLength)
        return `is ${text.length} characters long (at most ${constants/* Limits */.xu.idLength})`;
    if (FORBIDDEN.test(text))
        return 'holds control characters';
    if (!text.isWellFormed())
        return 'is not valid Unicode text';
    if (text === '.' || text === '..')
        return `is '${text}', which is no deployment but a path`;
    if (looksLikeCommand(text))
        return 'would be read as a workflow command by the GitHub runner';
    return undefined;
}
function idsJson(ids) {
    return `[${ids.map((id) => (id.numeric ? id.text : JSON.stringify(id.text))).join(',')}]`;
}

// EXTERNAL MODULE: ./core/network-error.ts
var network_error = __nccwpck_require__(3647);
;// CONCATENATED MODULE: ./core/pool.ts
async function settleAll(items, limit, task) {
    const results = new Array(items.length);
    let next = 0;
    async function worker() {
        while (next < items.length) {
            const index = next++;
            try {
                results[index] = { status: 'fulfilled', value: await task(items[index]) };
            }
            catch (reason) {
                results[index] = { status: 'rejected', reason };
            }
        }
    }
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
}

;// CONCATENATED MODULE: ./core/secret.ts

function secretForms(secret) {
    if (!secret)
        return [];
    secret = secret.toWellFormed();
    const json = JSON.stringify(secret).slice(1, -1);
    const asciiJson = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const html = (0,core_text/* escapeHtml */.ZD)(secret);
    const lines = secret.split(/[\r\n]+/).filter((line) => line.trim() !== '');
    const forms = new Set([secret, json, asciiJson, encodeURIComponent(secret), html, ...lines]);
    return [...forms].sort((a, b) => b.length - a.length);
}
function scrubber(secret) {
    const forms = secretForms(secret);
    return (text) => {
        const scrubbed = forms.reduce((result, form) => result.replaceAll(form, '***'), text);
        return secret && unescapings(scrubbed).some((form) => form.includes(secret)) ? HIDDEN : scrubbed;
    };
}
const HIDDEN = '*** (not shown: it held the API key in an escaped form)';
function unescapings(text) {
    const once = unescapeText(text);
    return [once, unescapeText(once)];
}
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function unescapeText(text) {
    return text
        .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)))
        .replace(/\\([\\/"'])/g, '$1')
        .replace(/&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g, (entity, dec, hex, name) => {
        if (name)
            return ENTITIES[name] ?? entity;
        const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
        .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'));
}
function holdsSecret(text, secret) {
    if (!secret)
        return false;
    if (secret.length < 6)
        return text === secret;
    return scrubber(secret)(text) !== text;
}

;// CONCATENATED MODULE: ./core/service.ts







class ServiceError extends Error {
    lines;
    constructor(lines) {
        super(lines.join('\n'));
        this.name = 'ServiceError';
        this.lines = lines;
    }
}
async function createAll(tracker, bodies) {
    const settled = await settleAll(bodies, constants/* Limits */.xu.requestsInFlight, (body) => tracker.create(body));
    return settled.map((result, index) => {
        const body = bodies[index];
        return result.status === 'fulfilled' ? { body, id: result.value } : { body, failure: failureLines(result.reason) };
    });
}
async function setStatusAll(tracker, ids, status) {
    const settled = await settleAll(ids, constants/* Limits */.xu.requestsInFlight, (id) => tracker.update(id, status));
    return settled.map((result, index) => {
        const id = ids[index];
        return result.status === 'fulfilled' ? { id } : { id, failure: failureLines(result.reason) };
    });
}
function failureLines(error) {
    if (error instanceof ServiceError)
        return error.lines;
    if (error instanceof network_error/* NetworkError */.D)
        return [error.message];
    return (0,core_text/* bugLines */.g1)('unexpected error', error);
}
function createTracker(http, connection) {
    const { baseUrl, apiKey } = connection;
    const scrub = scrubber(apiKey);
    return {
        async create(body) {
            const response = await http.send(createRequest(baseUrl, apiKey, body));
            const answer = successAnswer(response, scrub);
            const head = `HTTP ${response.status}, but`;
            const id = answerId(response.text, answer.id, head);
            if (!id || id.text === '')
                throw new ServiceError([`${head} the answer has no deployment \`id\``]);
            const why = holdsSecret(id.text, apiKey) ? 'holds the API key' : idProblem(id.text);
            if (why) {
                throw new ServiceError([
                    `${head} the deployment id it returned ${why}, so it is not kept (the service may have recorded a deployment this action cannot finish)`,
                ]);
            }
            return id;
        },
        async update(id, status) {
            successAnswer(await http.send(updateRequest(baseUrl, apiKey, id, status)), scrub);
        },
    };
}
function createRequest(baseUrl, apiKey, body) {
    return jsonRequest('POST', new URL('deployment', baseUrl), apiKey, body);
}
function updateRequest(baseUrl, apiKey, id, status) {
    return jsonRequest('PATCH', deploymentUrl(baseUrl, id), apiKey, { status });
}
function deploymentUrl(baseUrl, id) {
    const segment = encodeURIComponent(id.text);
    const url = new URL(`deployment/${segment}`, baseUrl);
    if (url.href !== `${baseUrl.href}deployment/${segment}`)
        throw new Error(`Deployment id '${id.text}' leaves the deployment path`);
    return url;
}
function jsonRequest(method, url, apiKey, body) {
    return {
        method,
        url,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
    };
}
function successAnswer(response, scrub) {
    const { status } = response;
    const body = parseAnswer(response.text);
    if (status >= 300 && status < 400) {
        const where = response.location
            ? `it points to '${(0,core_text/* shorten */.ml)(scrub(response.location), constants/* Limits */.xu.detailEntryLength, core_text/* TRUNCATED */.vj)}'`
            : 'it names no address';
        throw new ServiceError([
            `HTTP ${status}: a redirect, which is not followed (the API key would go along); ${where}. Set \`base-url\` to the service's own address.`,
        ]);
    }
    if (status < 200 || status >= 300)
        throw new ServiceError(describeFailure(response, body, scrub));
    if (!isObject(body)) {
        const why = response.truncated
            ? `is over ${constants/* Limits */.xu.answerBytes / 1024} KiB (only that much is read)`
            : 'is not a JSON object';
        throw new ServiceError([`HTTP ${status}, but the answer ${why}, so it is not taken as a success`]);
    }
    if (body.success !== true)
        throw new ServiceError([`HTTP ${status}, but the answer does not say \`success: true\``]);
    return body;
}
function describeFailure(response, body, scrub = (text) => text) {
    const head = `HTTP ${response.status}`;
    const cut = (text, max) => (0,core_text/* shorten */.ml)(scrub(text), max, core_text/* TRUNCATED */.vj);
    if (body === undefined) {
        if (response.truncated)
            return [`${head} (the answer is over ${constants/* Limits */.xu.answerBytes / 1024} KiB; it was not read whole)`];
        const type = response.contentType.split(';')[0]?.trim();
        return [`${head} (the answer is not JSON${type ? `: ${cut(type, constants/* Limits */.xu.quotedValueLength)}` : ''})`];
    }
    const detail = isObject(body) ? body.detail : undefined;
    if (detail === undefined || detail === null)
        return [`${head} (no \`detail\` in the answer)`];
    if (typeof detail === 'string')
        return [`${head}: ${cut(detail, constants/* Limits */.xu.detailLength)}`];
    if (Array.isArray(detail)) {
        const entries = detail.slice(0, constants/* Limits */.xu.detailEntries);
        const shown = entries.map((entry) => `  ${cut(describeValidationEntry(entry), constants/* Limits */.xu.detailEntryLength)}`);
        const more = detail.length - shown.length;
        return [`${head}:`, ...shown, ...(more > 0 ? [`  (and ${more} more)`] : [])];
    }
    return [`${head}: ${cut(JSON.stringify(detail), constants/* Limits */.xu.detailLength)}`];
}
function describeValidationEntry(entry) {
    if (!isObject(entry))
        return JSON.stringify(entry) ?? 'null';
    const location = Array.isArray(entry.loc) ? entry.loc.map(locationPart).join('.') : '';
    const message = typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry);
    return location ? `${location}: ${message}` : message;
}
function locationPart(part) {
    if (typeof part === 'string' || typeof part === 'number')
        return String(part);
    return JSON.stringify(part) ?? 'null';
}
function parseAnswer(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
function answerId(text, value, head) {
    if (typeof value !== 'number')
        return idFromJson(value);
    try {
        return idFromJson(parseJsonLosslessly(text).id);
    }
    catch {
        if (Number.isSafeInteger(value))
            return { text: String(value), numeric: true };
        throw new ServiceError([`${head} the answer nests too deep for its numeric id to be read exactly`]);
    }
}

;// CONCATENATED MODULE: ./core/dry-run.ts

const PLACEHOLDER_ID = Object.freeze({ text: '{id}', numeric: false });
function dryRunTracker({ baseUrl, apiKey }, log) {
    return {
        create(body) {
            log.info(requestLines(createRequest(baseUrl, apiKey, body)));
            return Promise.resolve(PLACEHOLDER_ID);
        },
        update(id, status) {
            const request = updateRequest(baseUrl, apiKey, id, status);
            const url = id === PLACEHOLDER_ID ? `${baseUrl.href}deployment/{id}` : request.url.href;
            log.info(requestLines(request, url));
            return Promise.resolve();
        },
    };
}
function requestLines(request, url = request.url.href) {
    const headers = Object.entries(request.headers).map(([name, value]) => name === 'x-api-key' ? `${name}: ***` : `${name}: ${value}`);
    const body = JSON.stringify(JSON.parse(request.body), null, 2).split('\n');
    return ['Dry run: would send', `${request.method} ${url}`, ...headers, ...body];
}

;// CONCATENATED MODULE: ./core/tracker.ts


async function withTracker(connection, log, dryRun, use) {
    if (dryRun)
        return use(dryRunTracker(connection, log));
    const { createHttpClient } = await Promise.all(/* import() */[__nccwpck_require__.e(371), __nccwpck_require__.e(82)]).then(__nccwpck_require__.bind(__nccwpck_require__, 7082));
    const http = await createHttpClient({ ...connection, log });
    try {
        return await use(createTracker(http, connection));
    }
    finally {
        await http.close();
    }
}

;// CONCATENATED MODULE: ./core/execute.ts


async function execute(plan, { connection, dryRun }, log) {
    switch (plan.kind) {
        case 'create':
            return { created: await withTracker(connection, log, dryRun, (tracker) => createAll(tracker, plan.bodies)) };
        case 'update':
            return {
                updated: await withTracker(connection, log, dryRun, (tracker) => setStatusAll(tracker, plan.ids, plan.status)),
            };
        default:
            return {};
    }
}

;// CONCATENATED MODULE: ./core/plan.ts

function plan_plan(settings, request) {
    const { status, deploymentIds, artifacts, fields } = request;
    if (settings.noKey !== undefined)
        return { kind: 'nothing', reason: 'no-key', warning: settings.noKey };
    if (typeof status === 'object')
        return { kind: 'nothing', ...nothingReason(status) };
    if (deploymentIds?.length === 0)
        return { kind: 'nothing', reason: 'no-ids' };
    if (deploymentIds) {
        return status ? { kind: 'update', status, ids: deploymentIds } : { kind: 'finish-later', ids: deploymentIds };
    }
    if (!fields)
        throw new Error('plan: creating deployments needs their fields');
    const sent = status ?? 'STARTED';
    return {
        kind: 'create',
        status: sent,
        bodies: artifacts.map((artifact) => createBody(artifact, fields, sent)),
        finishLater: status === undefined,
    };
}
function nothingReason(status) {
    return status.nothing === 'not-yet'
        ? { reason: 'not-yet', why: status.why }
        : { reason: status.nothing, word: status.word };
}

;// CONCATENATED MODULE: ./core/proxy.ts

const DEFAULT_PORTS = { 'http:': 80, 'https:': 443 };
function proxyFor(target, env) {
    if (isLoopback(target.hostname))
        return undefined;
    const variable = proxyVariable(target.protocol, env);
    if (!variable)
        return undefined;
    const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
    if (!shouldProxy(hostOf(target), port, env.no_proxy ?? env.NO_PROXY ?? ''))
        return undefined;
    return { url: parseProxyUrl(variable.name, variable.value), variable: variable.name };
}
function proxyVariable(protocol, env) {
    const pick = (lower, upper) => {
        const name = env[lower] !== undefined ? lower : upper;
        const value = env[name];
        return value ? { name, value } : undefined;
    };
    const http = pick('http_proxy', 'HTTP_PROXY');
    return protocol === 'https:' ? (pick('https_proxy', 'HTTPS_PROXY') ?? http) : http;
}
function parseProxyUrl(variable, value) {
    let url;
    try {
        url = new URL(value);
    }
    catch {
        url = undefined;
    }
    if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
        throw new ConfigError(`Environment variable ${variable}`, `is not a proxy URL: '${withoutCredentials(value)}'. Set it to e.g. \`http://proxy.example.com:3128\`, or unset it.`);
    }
    return url;
}
function hostOf(url) {
    const host = url.hostname.replace(/^\[(.+)\]$/, '$1').toLowerCase();
    return host.length > 1 && host.endsWith('.') ? host.slice(0, -1) : host;
}
function shouldProxy(host, port, noProxy) {
    for (const entry of noProxy.split(/[,\s]/)) {
        if (!entry)
            continue;
        const { hostname, port: entryPort, wildcard } = parseNoProxyEntry(entry);
        if (entryPort && entryPort !== port)
            continue;
        if (hostname === '*')
            return false;
        if (!wildcard && host === hostname)
            return false;
        if (host.endsWith(`.${hostname}`))
            return false;
    }
    return true;
}
function parseNoProxyEntry(entry) {
    const bracketed = /^\[(.+)\]:(\d+)$/.exec(entry);
    let hostname = bracketed?.[1];
    let port = bracketed ? Number(bracketed[2]) : 0;
    if (!bracketed) {
        const unbracketed = entry.replace(/^\[(.+)\]$/, '$1');
        const hostPort = (unbracketed.match(/:/g) ?? []).length === 1 ? /^(.+):(\d+)$/.exec(unbracketed) : null;
        hostname = hostPort?.[1] ?? unbracketed;
        port = hostPort ? Number(hostPort[2]) : 0;
    }
    const name = (hostname ?? '')
        .replace(/^\*?\./, '')
        .replace(/^(.+)\.$/, '$1')
        .toLowerCase();
    return { hostname: name, port, wildcard: entry.startsWith('*') };
}
function isLoopback(hostname) {
    const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
function withoutCredentials(text) {
    return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1***@');
}

;// CONCATENATED MODULE: ./core/settings.ts








function readSettings(source, env) {
    const problems = new ProblemCollector();
    const settings = readCommon(source, env, problems);
    problems.throwIfAny();
    return settings;
}
function readSettingsAndRequest(source, env, defaults) {
    const problems = new ProblemCollector();
    const settings = readCommon(source, env, problems);
    const request = readRequest(source, settings.connection.apiKey, defaults, problems);
    problems.throwIfAny();
    return { settings, request };
}
function readCommon(source, env, problems) {
    const keyOrWarning = problems.read(() => readApiKey(source), { apiKey: '' });
    const allowInsecureHttp = problems.read(() => readBoolean(source, constants/* Settings */.wB.AllowInsecureHttp), false);
    const baseUrl = problems.read(() => readBaseUrl(source, allowInsecureHttp), undefined);
    const proxy = baseUrl && problems.read(() => proxyFor(baseUrl, env), undefined);
    const timeoutSeconds = problems.read(() => readNumber(source, constants/* Settings */.wB.TimeoutSeconds, /^\d+(\.\d+)?$/, 0.001, constants/* Limits */.xu.timeoutSeconds, 'a number of seconds above 0 and at most'), 0);
    const retries = problems.read(() => readNumber(source, constants/* Settings */.wB.Retries, /^\d+$/, 0, constants/* Limits */.xu.retries, 'a whole number from 0 to'), 0);
    const failOnError = problems.read(() => readBoolean(source, constants/* Settings */.wB.FailOnError), false);
    const dryRun = problems.read(() => readBoolean(source, constants/* Settings */.wB.DryRun), false);
    const { apiKey, noKey } = keyOrWarning;
    return {
        connection: { apiKey, baseUrl: baseUrl, timeoutMs: timeoutSeconds * 1000, retries, proxy },
        failOnError,
        dryRun,
        ...(noKey ? { noKey } : {}),
    };
}
function readRequest(source, apiKey, defaults, problems) {
    const status = problems.read(() => readStatus(source), undefined);
    const rawDeploymentIds = source.get(constants/* Settings */.wB.DeploymentId);
    const deploymentIds = problems.read(() => readDeploymentIds(source, rawDeploymentIds, apiKey), undefined);
    const artifacts = rawDeploymentIds === '' ? problems.read(() => readArtifacts(source), []) : [];
    const creates = rawDeploymentIds === '' && !(status && typeof status === 'object');
    problems.read(() => readType(source), constants/* DeploymentType */.C1);
    const given = Object.fromEntries(FieldNames.map((field) => [field, source.get(FieldSettings[field])]));
    const fields = creates ? resolveFields(given, defaults(), source, problems) : undefined;
    return { status, deploymentIds, artifacts, fields };
}
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;
function readApiKey(source) {
    const apiKey = source.get(constants/* Settings */.wB.ApiKey);
    const subject = source.setting(constants/* Settings */.wB.ApiKey);
    if (!apiKey) {
        const empty = source.emptyKey();
        if ('problem' in empty)
            throw new ConfigError(subject, empty.problem);
        return { apiKey, noKey: empty.warning };
    }
    if (!HEADER_SAFE.test(apiKey)) {
        throw new ConfigError(subject, 'holds a character no HTTP header can carry (a line break, another control character, or one outside Latin-1). Copy the key again from the service.');
    }
    return { apiKey };
}
function readBaseUrl(source, allowInsecureHttp) {
    const raw = source.get(constants/* Settings */.wB.BaseUrl);
    const shown = (0,core_text/* quote */.hD)(withoutCredentials(raw));
    const example = 'e.g. `https://tracker.example.com/api`';
    const problem = (text) => new ConfigError(source.setting(constants/* Settings */.wB.BaseUrl), text);
    if (!raw)
        throw problem(`is empty. Set it to the service's address, ${example}.`);
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw problem(`is not a URL: ${shown}. Set it to the service's address, ${example}.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw problem(`must be an http(s) URL, got ${shown}. Use ${example}.`);
    }
    if (url.username || url.password) {
        throw problem(`must not carry credentials; the key goes in ${source.assignment(constants/* Settings */.wB.ApiKey)}.`);
    }
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
        throw problem(`uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set ${source.assignment(constants/* Settings */.wB.AllowInsecureHttp, 'true')} if the network path is trusted.`);
    }
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/'))
        url.pathname += '/';
    return url;
}
function readBoolean(source, name) {
    const raw = source.get(name);
    const value = raw.toLowerCase();
    if (value === 'true')
        return true;
    if (value === 'false' || value === '')
        return false;
    throw new ConfigError(source.setting(name), `must be \`true\` or \`false\`, got ${(0,core_text/* quote */.hD)(raw)}.`);
}
function readNumber(source, name, accepts, min, max, expected) {
    const raw = source.get(name);
    const value = accepts.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) {
        throw new ConfigError(source.setting(name), `must be ${expected} ${max}, got ${(0,core_text/* quote */.hD)(raw)}.`);
    }
    return value;
}
const NOT_FINAL = ['pending', 'queued', 'in_progress', 'inactive', 'waiting'];
const STATUS_WORDS = {
    started: 'STARTED',
    succeeded: 'SUCCEEDED',
    failed: 'FAILED',
    success: 'SUCCEEDED',
    failure: 'FAILED',
    cancelled: 'FAILED',
    error: 'FAILED',
    skipped: 'skipped',
    ...Object.fromEntries(NOT_FINAL.map((word) => [word, 'not-final'])),
};
function statusFromWord(word) {
    const key = word.trim().toLowerCase();
    if (!Object.hasOwn(STATUS_WORDS, key))
        return undefined;
    const meaning = STATUS_WORDS[key];
    return meaning === 'skipped' || meaning === 'not-final' ? { nothing: meaning, word: key } : meaning;
}
function finalStatus(word) {
    const status = statusFromWord(word);
    return status === 'SUCCEEDED' || status === 'FAILED' ? status : undefined;
}
function readStatus(source) {
    const raw = source.get(constants/* Settings */.wB.Status);
    if (raw === '')
        return readImpliedStatus(source);
    const status = statusFromWord(raw);
    if (!status) {
        const implied = source.impliedStatus?.();
        const empty = implied === undefined
            ? ' Leave it empty to start the deployment here and finish it when the job ends.'
            : 'word' in implied
                ? ` Leave it empty to take it from ${implied.from}.`
                : '';
        throw new ConfigError(source.setting(constants/* Settings */.wB.Status), `must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got ${(0,core_text/* quote */.hD)(raw)}.${empty}`);
    }
    return status;
}
function readImpliedStatus(source) {
    const implied = source.impliedStatus?.();
    if (implied === undefined)
        return undefined;
    if ('nothing' in implied)
        return { nothing: 'not-yet', why: implied.nothing };
    const status = statusFromWord(implied.word);
    if (status === 'SUCCEEDED' || status === 'FAILED' || typeof status === 'object')
        return status;
    throw new ConfigError(source.setting(constants/* Settings */.wB.Status), `is empty, so the status comes from ${implied.from}: ${(0,core_text/* quote */.hD)(implied.word)}, which is neither a finished state nor one that records nothing. Set ${source.assignment(constants/* Settings */.wB.Status)} to say what to record.`);
}
function readType(source) {
    const raw = source.get(constants/* Settings */.wB.Type);
    if (raw === '' || raw.toUpperCase() === constants/* DeploymentType */.C1)
        return constants/* DeploymentType */.C1;
    throw new ConfigError(source.setting(constants/* Settings */.wB.Type), `must be ${constants/* DeploymentType */.C1} (the only type the service accepts), got ${(0,core_text/* quote */.hD)(raw)}.`);
}
function splitList(raw) {
    return raw
        .split(/[\r\n,]/)
        .map((item) => item.trim())
        .filter((item) => item !== '');
}
function artifactIdValue(raw) {
    return /^(0|[1-9]\d*)$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}
function readArtifacts(source) {
    const byId = splitList(source.get(constants/* Settings */.wB.ArtifactId)).map((id) => ({ artifactId: artifactIdValue(id) }));
    const byName = splitList(source.get(constants/* Settings */.wB.ArtifactName)).map((name) => ({ artifactName: name }));
    const artifacts = [...byId, ...byName];
    const subject = source.setting(constants/* Settings */.wB.ArtifactId, constants/* Settings */.wB.ArtifactName);
    if (artifacts.length === 0) {
        throw new ConfigError(subject, `must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set ${source.assignment(constants/* Settings */.wB.DeploymentId)} to update an existing deployment.`);
    }
    if (artifacts.length > constants/* Limits */.xu.idsPerStep) {
        throw new ConfigError(subject, `name ${artifacts.length} artifacts; one step records at most ${constants/* Limits */.xu.idsPerStep}. Split them over several steps.`);
    }
    return artifacts;
}
function readDeploymentIds(source, raw, apiKey) {
    if (raw === '')
        return undefined;
    const problem = (text) => new ConfigError(source.setting(constants/* Settings */.wB.DeploymentId), text);
    const ids = raw.startsWith('[') ? parseIdArray(raw) : splitList(raw).map(textId);
    if (!ids)
        throw problem(`looks like a JSON array but is not one: ${(0,core_text/* quote */.hD)(raw)}.`);
    if (ids.some((id) => id === undefined)) {
        throw problem(`must be an id, a list of ids or a JSON array of ids, got ${(0,core_text/* quote */.hD)(raw)}.`);
    }
    if (ids.length > constants/* Limits */.xu.idsPerStep) {
        throw problem(`holds ${ids.length} ids; one step updates at most ${constants/* Limits */.xu.idsPerStep}. Split them over several steps.`);
    }
    for (const id of ids) {
        if (holdsSecret(id.text, apiKey))
            throw problem('holds the API key as an id (are two secrets swapped?).');
        const why = idProblem(id.text);
        if (why)
            throw problem(`holds an id that ${why}: ${(0,core_text/* quote */.hD)(id.text)}.`);
    }
    return ids;
}
function parseIdArray(raw) {
    let parsed;
    try {
        parsed = parseJsonLosslessly(raw);
    }
    catch {
        return undefined;
    }
    if (!Array.isArray(parsed))
        return undefined;
    return parsed.map((value) => {
        const id = idFromJson(typeof value === 'string' ? value.trim() : value);
        return id && id.text !== '' ? id : undefined;
    });
}

;// CONCATENATED MODULE: external "os"
const external_os_namespaceObject = require("os");
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/utils.js
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function utils_toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function utils_toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function command_issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_namespaceObject.EOL);
}
function command_issue(name, message = '') {
    command_issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
;// CONCATENATED MODULE: external "./node-crypto.js"
const external_node_crypto_js_namespaceObject = require("./node-crypto.js");
;// CONCATENATED MODULE: external "fs"
const external_fs_namespaceObject = require("fs");
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function file_command_issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_namespaceObject.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_namespaceObject.appendFileSync(filePath, `${utils_toCommandValue(message)}${external_os_namespaceObject.EOL}`, {
        encoding: 'utf8'
    });
}
function file_command_prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_node_crypto_js_namespaceObject.randomUUID()}`;
    const convertedValue = utils_toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_namespaceObject.EOL}${convertedValue}${external_os_namespaceObject.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map
;// CONCATENATED MODULE: external "path"
const external_path_namespaceObject = require("path");
;// CONCATENATED MODULE: ../node_modules/@actions/http-client/lib/auth.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
class BasicCredentialHandler {
    constructor(username, password) {
        this.username = username;
        this.password = password;
    }
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class auth_BearerCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Bearer ${this.token}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
class PersonalAccessTokenCredentialHandler {
    constructor(token) {
        this.token = token;
    }
    // currently implements pre-authorization
    // TODO: support preAuth = false where it hooks on 401
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`PAT:${this.token}`).toString('base64')}`;
    }
    // This handler cannot handle 401
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
//# sourceMappingURL=auth.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/oidc-utils.js
var oidc_utils_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



class oidc_utils_OidcClient {
    static createHttpClient(allowRetry = true, maxRetry = 10) {
        const requestOptions = {
            allowRetries: allowRetry,
            maxRetries: maxRetry
        };
        return new HttpClient('actions/oidc-client', [new BearerCredentialHandler(oidc_utils_OidcClient.getRequestToken())], requestOptions);
    }
    static getRequestToken() {
        const token = process.env['ACTIONS_ID_TOKEN_REQUEST_TOKEN'];
        if (!token) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_TOKEN env variable');
        }
        return token;
    }
    static getIDTokenUrl() {
        const runtimeUrl = process.env['ACTIONS_ID_TOKEN_REQUEST_URL'];
        if (!runtimeUrl) {
            throw new Error('Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable');
        }
        return runtimeUrl;
    }
    static getCall(id_token_url) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            var _a;
            const httpclient = oidc_utils_OidcClient.createHttpClient();
            const res = yield httpclient
                .getJson(id_token_url)
                .catch(error => {
                throw new Error(`Failed to get ID Token. \n 
        Error Code : ${error.statusCode}\n 
        Error Message: ${error.message}`);
            });
            const id_token = (_a = res.result) === null || _a === void 0 ? void 0 : _a.value;
            if (!id_token) {
                throw new Error('Response json body do not have ID Token field');
            }
            return id_token;
        });
    }
    static getIDToken(audience) {
        return oidc_utils_awaiter(this, void 0, void 0, function* () {
            try {
                // New ID Token is requested from action service
                let id_token_url = oidc_utils_OidcClient.getIDTokenUrl();
                if (audience) {
                    const encodedAudience = encodeURIComponent(audience);
                    id_token_url = `${id_token_url}&audience=${encodedAudience}`;
                }
                debug(`ID token url is ${id_token_url}`);
                const id_token = yield oidc_utils_OidcClient.getCall(id_token_url);
                setSecret(id_token);
                return id_token;
            }
            catch (error) {
                throw new Error(`Error message: ${error.message}`);
            }
        });
    }
}
//# sourceMappingURL=oidc-utils.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/summary.js
var summary_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_namespaceObject.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return summary_awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, external_fs_namespaceObject.constants.R_OK | external_fs_namespaceObject.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return summary_awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return summary_awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(external_os_namespaceObject.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = (/* unused pure expression or super */ null && (_summary));
const summary = (/* unused pure expression or super */ null && (_summary));
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/path-utils.js

/**
 * toPosixPath converts the given path to the posix form. On Windows, \\ will be
 * replaced with /.
 *
 * @param pth. Path to transform.
 * @return string Posix path.
 */
function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
/**
 * toWin32Path converts the given path to the win32 form. On Linux, / will be
 * replaced with \\.
 *
 * @param pth. Path to transform.
 * @return string Win32 path.
 */
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
/**
 * toPlatformPath converts the given path to a platform-specific path. It does
 * this by replacing instances of / and \ with the platform-specific path
 * separator.
 *
 * @param pth The path to platformize.
 * @return string The platform-specific path.
 */
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, path.sep);
}
//# sourceMappingURL=path-utils.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/platform.js
var platform_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const getWindowsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout: version } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield exec.getExecOutput('sw_vers', undefined, {
        silent: true
    });
    const version = (_b = (_a = stdout.match(/ProductVersion:\s*(.+)/)) === null || _a === void 0 ? void 0 : _a[1]) !== null && _b !== void 0 ? _b : '';
    const name = (_d = (_c = stdout.match(/ProductName:\s*(.+)/)) === null || _c === void 0 ? void 0 : _c[1]) !== null && _d !== void 0 ? _d : '';
    return {
        name,
        version
    };
});
const getLinuxInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout } = yield exec.getExecOutput('lsb_release', ['-i', '-r', '-s'], {
        silent: true
    });
    const [name, version] = stdout.trim().split('\n');
    return {
        name,
        version
    };
});
const platform = external_os_namespaceObject.platform();
const arch = external_os_namespaceObject.arch();
const isWindows = platform === 'win32';
const isMacOS = platform === 'darwin';
const isLinux = platform === 'linux';
function getDetails() {
    return platform_awaiter(this, void 0, void 0, function* () {
        return Object.assign(Object.assign({}, (yield (isWindows
            ? getWindowsInfo()
            : isMacOS
                ? getMacOsInfo()
                : getLinuxInfo()))), { platform,
            arch,
            isWindows,
            isMacOS,
            isLinux });
    });
}
//# sourceMappingURL=platform.js.map
;// CONCATENATED MODULE: ../node_modules/@actions/core/lib/core.js
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};






/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
//-----------------------------------------------------------------------
// Variables
//-----------------------------------------------------------------------
/**
 * Sets env variable for this action and future actions in the job
 * @param name the name of the variable to set
 * @param val the value of the variable. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
}
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function core_setSecret(secret) {
    command_issueCommand('add-mask', {}, secret);
}
/**
 * Prepends inputPath to the PATH (for this action and future actions)
 * @param inputPath
 */
function addPath(inputPath) {
    const filePath = process.env['GITHUB_PATH'] || '';
    if (filePath) {
        issueFileCommand('PATH', inputPath);
    }
    else {
        issueCommand('add-path', {}, inputPath);
    }
    process.env['PATH'] = `${inputPath}${path.delimiter}${process.env['PATH']}`;
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    if (options && options.required && !val) {
        throw new Error(`Input required and not supplied: ${name}`);
    }
    if (options && options.trimWhitespace === false) {
        return val;
    }
    return val.trim();
}
/**
 * Gets the values of an multiline input.  Each value is also trimmed.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string[]
 *
 */
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
/**
 * Gets the input value of the boolean type in the YAML 1.2 "core schema" specification.
 * Support boolean input list: `true | True | TRUE | false | False | FALSE` .
 * The return value is also in boolean type.
 * ref: https://yaml.org/spec/1.2/spec.html#id2804923
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   boolean
 */
function getBooleanInput(name, options) {
    const trueValue = ['true', 'True', 'TRUE'];
    const falseValue = ['false', 'False', 'FALSE'];
    const val = getInput(name, options);
    if (trueValue.includes(val))
        return true;
    if (falseValue.includes(val))
        return false;
    throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}\n` +
        `Support boolean input list: \`true | True | TRUE | false | False | FALSE\``);
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return file_command_issueFileCommand('OUTPUT', file_command_prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_namespaceObject.EOL);
    command_issueCommand('set-output', { name }, utils_toCommandValue(value));
}
/**
 * Enables or disables the echoing of commands into stdout for the rest of the step.
 * Echoing is disabled by default if ACTIONS_STEP_DEBUG is not set.
 *
 */
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
//-----------------------------------------------------------------------
// Logging Commands
//-----------------------------------------------------------------------
/**
 * Gets whether Actions Step Debug is on or not
 */
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function core_debug(message) {
    command_issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    command_issueCommand('error', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    command_issueCommand('warning', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function core_info(message) {
    process.stdout.write(message + external_os_namespaceObject.EOL);
}
/**
 * Begin an output group.
 *
 * Output until the next `groupEnd` will be foldable in this group
 *
 * @param name The name of the output group
 */
function startGroup(name) {
    issue('group', name);
}
/**
 * End an output group.
 */
function endGroup() {
    issue('endgroup');
}
/**
 * Wrap an asynchronous function call in a group.
 *
 * Returns the same type as the function itself.
 *
 * @param name The name of the group
 * @param fn The function to wrap in the group
 */
function group(name, fn) {
    return core_awaiter(this, void 0, void 0, function* () {
        startGroup(name);
        let result;
        try {
            result = yield fn();
        }
        finally {
            endGroup();
        }
        return result;
    });
}
//-----------------------------------------------------------------------
// Wrapper action state
//-----------------------------------------------------------------------
/**
 * Saves state for current action, the state can only be retrieved by this action's post job execution.
 *
 * @param     name     name of the state to store
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return file_command_issueFileCommand('STATE', file_command_prepareKeyValueMessage(name, value));
    }
    command_issueCommand('save-state', { name }, utils_toCommandValue(value));
}
/**
 * Gets the value of an state set by this action's main execution.
 *
 * @param     name     name of the state to get
 * @returns   string
 */
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        return yield OidcClient.getIDToken(aud);
    });
}
/**
 * Summary exports
 */

/**
 * @deprecated use core.summary
 */

/**
 * Path exports
 */

/**
 * Platform utilities exports
 */

//# sourceMappingURL=core.js.map
;// CONCATENATED MODULE: ./action/inputs.ts


const readInput = (name) => getInput(name);
const inputNaming = {
    setting: (...names) => `Input ${names.map((name) => `'${name}'`).join(' or ')}`,
    assignment: (name, value) => (value === undefined ? `\`${name}\`` : `\`${name}: ${value}\``),
};
function inputSettings(run) {
    return {
        get: readInput,
        ...inputNaming,
        emptyKey() {
            const why = secretsWithheld(run());
            if (why)
                return { warning: `Input 'api-key' is empty: ${why}, so nothing is recorded and the job goes on.` };
            return {
                problem: 'is empty. Set it from a secret, e.g. `api-key: ${{ secrets.DEPLOY_TRACKER_API_KEY }}`, and check that the secret exists for this repository and environment.',
            };
        },
        impliedStatus() {
            if (!isDeploymentEvent(process.env.GITHUB_EVENT_NAME ?? ''))
                return undefined;
            return deploymentEventStatus(run(), inputNaming);
        },
    };
}
const ACTION_WORDING = {
    ...inputNaming,
    starter: 'the main step',
    finisher: 'the post step',
    finishFrom: 'the job status',
    finishWhen: 'when the job ends',
};

;// CONCATENATED MODULE: ./action/names.ts
const Internal = {
    JobStatus: 'job-status',
    JobCheckRunId: 'job-check-run-id',
};
const Outputs = {
    DeploymentId: 'deployment-id',
    DeploymentIds: 'deployment-ids',
    Status: 'status',
};
const State = {
    Handoff: 'handoff',
};

;// CONCATENATED MODULE: ./action/handoff.ts





const NOTE_LENGTH = 1000;
function saveHandoff(handoff) {
    saveState(State.Handoff, encodeHandoff(handoff));
}
function readHandoff() {
    return decodeHandoff(getState(State.Handoff));
}
function encodeHandoff(handoff) {
    if ('note' in handoff)
        return JSON.stringify({ kind: 'nothing', note: handoff.note });
    if (!handoff.dryRun)
        return `{"kind":"finish","ids":${idsJson(handoff.ids)},"startedAt":${handoff.startedAt}}`;
    const ids = handoff.ids ? `,"ids":${idsJson(handoff.ids)}` : '';
    return `{"kind":"finish-dry-run","count":${handoff.count}${ids}}`;
}
function decodeHandoff(text) {
    if (text === '')
        return { none: true };
    let value;
    try {
        value = parseJsonLosslessly(text);
    }
    catch {
        return { unreadable: 'it is not JSON' };
    }
    if (!isObject(value))
        return { unreadable: 'it is not an object' };
    switch (value.kind) {
        case 'finish': {
            const ids = decodeIds(value.ids);
            if (typeof ids === 'string')
                return { unreadable: ids };
            const startedAt = jsonNumber(value.startedAt);
            return { dryRun: false, ids, startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : 0 };
        }
        case 'finish-dry-run': {
            const count = jsonNumber(value.count);
            if (!(Number.isInteger(count) && count > 0 && count <= constants/* Limits */.xu.idsPerStep)) {
                return { unreadable: 'its count is no number of deployments' };
            }
            if (value.ids === undefined)
                return { dryRun: true, count };
            const ids = decodeIds(value.ids);
            return typeof ids === 'string' ? { unreadable: ids } : { dryRun: true, count, ids };
        }
        case 'nothing':
            return typeof value.note === 'string' && value.note.length <= NOTE_LENGTH
                ? { note: value.note }
                : { unreadable: 'it gives no note' };
        default:
            return { unreadable: 'it names no known kind' };
    }
}
function decodeIds(raw) {
    if (!Array.isArray(raw) || raw.length === 0 || raw.length > constants/* Limits */.xu.idsPerStep) {
        return 'its ids are no list of deployment ids';
    }
    const ids = raw.map((value) => idFromJson(value));
    if (ids.some((id) => !id || idProblem(id.text)))
        return 'it holds a value that is no deployment id';
    return ids;
}
function jsonNumber(value) {
    return value instanceof JsonNumber ? Number(value.source) : NaN;
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = require("node:fs");
;// CONCATENATED MODULE: ./action/summary.ts



function recordedRow(body, id) {
    return {
        artifact: 'artifactId' in body ? String(body.artifactId) : body.artifactName,
        environment: body.environment,
        version: body.version,
        commitSha: body.commitSha,
        branch: body.branch,
        status: body.status,
        id: id.text,
        link: body.link ?? '',
    };
}
const COLUMNS = ['Artifact', 'Environment', 'Version', 'Commit', 'Branch', 'Status', 'Id', 'Link'];
function writeSummary(content, log) {
    const path = process.env.GITHUB_STEP_SUMMARY;
    if (!path)
        return log.debug('No GITHUB_STEP_SUMMARY: job summary skipped.');
    try {
        (0,external_node_fs_namespaceObject.appendFileSync)(path, renderSummary(content, log.clean));
    }
    catch (error) {
        log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
    }
}
function renderSummary(content, clean) {
    const text = (value, max = Infinity) => (0,core_text/* escapeHtml */.ZD)((0,core_text/* shorten */.ml)(clean(value), max));
    const budget = new Budget(constants/* Limits */.xu.summaryBytes);
    const parts = [`<h3>${text(content.heading, constants/* Limits */.xu.summaryCellLength)}</h3>`];
    for (const line of content.lines ?? [])
        parts.push(`<p>${text(line, constants/* Limits */.xu.detailLength)}</p>`);
    budget.spend(parts.join('\n'));
    const rows = content.rows ?? [];
    if (rows.length) {
        const header = `<tr>${COLUMNS.map((name) => `<th>${name}</th>`).join('')}</tr>`;
        const shown = budget.take(rows.map((row) => `<tr>${tableRow(row, clean)
            .map((data) => `<td>${data}</td>`)
            .join('')}</tr>`));
        parts.push(`<table>${header}${shown.join('')}</table>`);
        if (shown.length < rows.length)
            parts.push(`<p>${rows.length - shown.length} more deployments are not shown here (see the log).</p>`);
    }
    const failures = content.failures ?? [];
    if (failures.length) {
        const items = failures.map((lines) => `<li>${lines.map((line) => text(line, constants/* Limits */.xu.detailLength)).join('<br>')}</li>`);
        const shown = budget.take(items);
        parts.push(`<ul>${shown.join('')}</ul>`);
        if (shown.length < items.length)
            parts.push(`<p>${items.length - shown.length} more failures are not shown here (see the log).</p>`);
    }
    return `${parts.join('\n')}\n`;
}
function tableRow(row, clean) {
    const cell = (value) => (0,core_text/* escapeHtml */.ZD)((0,core_text/* shorten */.ml)(clean(value), constants/* Limits */.xu.summaryCellLength));
    const link = /^https?:\/\//i.test(row.link)
        ? `<a href="${cell(row.link)}">${cell(linkText(row.link))}</a>`
        : cell(row.link);
    return [
        cell(row.artifact),
        cell(row.environment),
        cell(row.version),
        `<code>${(0,core_text/* escapeHtml */.ZD)(clean(row.commitSha).slice(0, 7))}</code>`,
        cell(row.branch),
        cell(row.status),
        cell(row.id),
        link,
    ];
}
function linkText(url) {
    try {
        return new URL(url).host || 'link';
    }
    catch {
        return 'link';
    }
}
class Budget {
    left;
    constructor(bytes) {
        this.left = bytes;
    }
    spend(text) {
        this.left -= Buffer.byteLength(text);
    }
    take(items) {
        const taken = [];
        for (const item of items) {
            const size = Buffer.byteLength(item);
            if (size > this.left)
                break;
            this.left -= size;
            taken.push(item);
        }
        return taken;
    }
}

;// CONCATENATED MODULE: ./action/report.ts







function reportStart(report, failOnError, log) {
    handOn(log, report.open ?? { note: '' }, report.ids, report.status);
    show(report, failOnError, log);
}
function reportFinish(report, failOnError, log) {
    show(report, failOnError, log);
}
function show(report, failOnError, log) {
    for (const line of report.lines) {
        if (line.warning)
            log.warning(line.text);
        else
            log.info(line.text);
    }
    if (report.summary) {
        const rows = report.recorded.map(({ body, id }) => recordedRow(body, id));
        writeSummary({ ...report.summary, rows, failures: report.failures }, log);
    }
    applyFailurePolicy(report.failures, failOnError, log);
}
function reportConfigError(error, stage, log) {
    log.fail(error.lines);
    if (stage === 'main')
        handOn(log, { note: 'Nothing to finish: the main step stopped on a configuration error.' });
    const heading = `Deployment not ${stage === 'main' ? 'recorded' : 'finished'}: configuration error`;
    writeSummary({ heading, failures: [error.lines] }, log);
}
function reportNothingOpen(handoff, log) {
    if ('unreadable' in handoff) {
        return log.warning(`The main step's state could not be read (${handoff.unreadable}), so nothing is sent: the deployment stays as the main step left it.`);
    }
    log.info('note' in handoff ? handoff.note : 'Nothing to finish: the main step recorded no deployment (see its log).');
}
function reportUnknownJobStatus(jobStatus, open, log) {
    const left = open.dryRun
        ? 'the deployments of this dry run would be left as they are'
        : `${deploymentsText(open.ids)} ${open.ids.length === 1 ? 'is left as it is' : 'are left as they are'}`;
    const message = `The job status is unknown (${(0,core_text/* quote */.hD)(jobStatus)}), so ${left}. The \`job-status\` input must keep its default, \`\${{ job.status }}\`.`;
    log.warning(message);
    writeSummary({ heading: 'Deployment left unfinished', lines: [message] }, log);
}
function applyFailurePolicy(failures, failOnError, log) {
    for (const failure of failures) {
        if (failOnError)
            log.fail(failure);
        else
            log.warning([...failure, 'The step goes on (fail-on-error is false).']);
    }
}
function presetOutputs() {
    try {
        setOutputs([], '');
    }
    catch {
    }
}
function handOn(log, handoff, ids, status) {
    write(log, 'state', () => saveHandoff(handoff));
    if (ids && status !== undefined)
        write(log, 'outputs', () => setOutputs(ids, status));
}
function write(log, what, action) {
    try {
        action();
    }
    catch (error) {
        log.warning(`Could not write the step's ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
}
function setOutputs(ids, status) {
    setOutput(Outputs.DeploymentId, ids[0]?.text ?? '');
    setOutput(Outputs.DeploymentIds, idsJson(ids));
    setOutput(Outputs.Status, status);
}

;// CONCATENATED MODULE: ./ci/event-file.ts



const FALLBACK = 'the defaults come from the GITHUB_* variables alone';
function readEventFile(path, log) {
    if (!path)
        return {};
    const said = (problem) => {
        log.warning(`The event file (GITHUB_EVENT_PATH) ${problem}: ${FALLBACK}.`);
        return {};
    };
    let text;
    try {
        const problem = fileProblem((0,external_node_fs_namespaceObject.statSync)(path));
        if (problem)
            return said(problem);
        text = readBounded(path);
    }
    catch (error) {
        return said(describeReadError(error));
    }
    let payload;
    try {
        payload = JSON.parse(text);
    }
    catch {
        return said('could not be read (it is not JSON)');
    }
    return isObject(payload) ? payload : said('holds no JSON object');
}
function fileProblem(stats) {
    if (!stats.isFile())
        return 'is not a file';
    if (stats.size > constants/* Limits */.xu.eventFileBytes)
        return `is over ${constants/* Limits */.xu.eventFileBytes / 1024 / 1024} MiB`;
    return undefined;
}
function readBounded(path) {
    const fd = (0,external_node_fs_namespaceObject.openSync)(path, external_node_fs_namespaceObject.constants.O_RDONLY | external_node_fs_namespaceObject.constants.O_NONBLOCK);
    try {
        const problem = fileProblem((0,external_node_fs_namespaceObject.fstatSync)(fd));
        if (problem)
            throw new EventFileError(problem);
        const chunks = [];
        let size = 0;
        for (;;) {
            const chunk = Buffer.allocUnsafe(64 * 1024);
            const read = (0,external_node_fs_namespaceObject.readSync)(fd, chunk, 0, chunk.length, null);
            if (read === 0)
                break;
            chunks.push(chunk.subarray(0, read));
            size += read;
            if (size > constants/* Limits */.xu.eventFileBytes)
                throw new EventFileError(`is over ${constants/* Limits */.xu.eventFileBytes / 1024 / 1024} MiB`);
        }
        return Buffer.concat(chunks, size).toString('utf8');
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
class EventFileError extends Error {
}
const ERRORS = {
    ENOENT: 'does not exist',
    ENOTDIR: 'does not exist (a part of its path is no folder)',
    ELOOP: 'is a loop of symbolic links',
    ENAMETOOLONG: 'has a name too long to open',
    EACCES: 'may not be read (permission denied)',
    EPERM: 'may not be read (operation not permitted)',
    EISDIR: 'is not a file',
    EAGAIN: 'is not a file',
};
function describeReadError(error) {
    if (error instanceof EventFileError)
        return error.message;
    const code = error.code;
    if (typeof code === 'string' && Object.hasOwn(ERRORS, code))
        return ERRORS[code];
    return `could not be read (${typeof code === 'string' ? code : String(error)})`;
}

;// CONCATENATED MODULE: ./action/run-context.ts



function readGitHubContext(log) {
    const { env } = process;
    return {
        eventName: env.GITHUB_EVENT_NAME ?? '',
        payload: readEventFile(env.GITHUB_EVENT_PATH, log),
        env,
        checkRunId: readInput(Internal.JobCheckRunId),
    };
}

;// CONCATENATED MODULE: ./action/main.ts









async function run(log) {
    const startedAt = Date.now();
    let context;
    const github = () => (context ??= readGitHubContext(log));
    let read;
    try {
        read = readSettingsAndRequest(inputSettings(github), process.env, () => githubDefaults(github()));
    }
    catch (error) {
        if (!(error instanceof ConfigError))
            throw error;
        return reportConfigError(error, 'main', log);
    }
    presetOutputs();
    const { settings, request } = read;
    const plan = plan_plan(settings, request);
    const results = await execute(plan, settings, log);
    const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, wording: ACTION_WORDING });
    reportStart(report, settings.failOnError, log);
}

;// CONCATENATED MODULE: ./action/post.ts











async function post_run(log) {
    const open = readHandoff();
    if (!('dryRun' in open))
        return reportNothingOpen(open, log);
    let settings;
    try {
        settings = readSettings(inputSettings(() => readGitHubContext(log)), process.env);
    }
    catch (error) {
        if (!(error instanceof ConfigError))
            throw error;
        return reportConfigError(error, 'post', log);
    }
    const jobStatus = readInput(Internal.JobStatus);
    const status = finalStatus(jobStatus);
    if (!status)
        return reportUnknownJobStatus(jobStatus, open, log);
    const dryRun = settings.dryRun || open.dryRun;
    const ids = open.ids ?? [PLACEHOLDER_ID];
    const results = await withTracker(settings.connection, log, dryRun, (tracker) => setStatusAll(tracker, ids, status));
    const report = describeFinish(status, results, {
        dryRun,
        startedAt: open.dryRun ? 0 : open.startedAt,
        placeholders: open.dryRun && !open.ids ? open.count : undefined,
        wording: ACTION_WORDING,
    });
    reportFinish(report, settings.failOnError, log);
}

;// CONCATENATED MODULE: ./action/log.ts



function openLog(apiKey) {
    for (const form of secretForms(apiKey))
        core_setSecret(form);
    const scrub = scrubber(apiKey);
    const clean = (line) => showControls(scrub(line));
    const lines = (text) => (typeof text === 'string' ? [text] : text).map(clean);
    return {
        info: (text) => lines(text)
            .flatMap(inertLines)
            .forEach((line) => core_info(line)),
        warning: (text) => warning(lines(text).join('\n')),
        fail: (text) => setFailed(lines(text).join('\n')),
        debug: (text) => {
            if (isDebug())
                core_debug(lines(text).join('\n'));
        },
        clean,
    };
}

;// CONCATENATED MODULE: ./action/step.ts






async function runStep(step) {
    const log = openLog(readInput(constants/* Settings */.wB.ApiKey));
    try {
        await step(log);
    }
    catch (error) {
        applyFailurePolicy([(0,core_text/* bugLines */.g1)('report-deployment stopped unexpectedly', error)], failOnError(), log);
    }
}
function failOnError() {
    try {
        return readBoolean({ get: readInput, ...inputNaming }, constants/* Settings */.wB.FailOnError);
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./action/index.ts



const main = () => runStep(run);
const post = () => runStep(post_run);

module.exports = __webpack_exports__;
/******/ })()
;