  (() => {  
  	"use strict";
  	var __webpack_modules__ = ({

  2851:
  ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

  __nccwpck_require__.d(__webpack_exports__, {
    C1: () => (  DeploymentType),
    t1: () => (  DefaultEnvironment),
    wB: () => (  Settings),
    xu: () => (  Limits)
  });
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


  }),

  3456:
  ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

  __nccwpck_require__.d(__webpack_exports__, {
    Jk: () => (  looksLikeCommand),
    mz: () => (  showControls),
    wi: () => (  inertLines)
  });
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


  }),

  3647:
  ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

  __nccwpck_require__.d(__webpack_exports__, {
    D: () => (  NetworkError),
    g: () => (  describeNetworkError)
  });
class NetworkError extends Error {
    name = 'NetworkError';
    category;
    constructor(message, category = 'other', options) {
        super(message, options);
        this.category = category;
    }
}
const CERTIFICATE_PROBLEMS = [
    [/CERT_HAS_EXPIRED/, 'has expired'],
    [/CERT_NOT_YET_VALID/, 'is not valid yet'],
    [/SELF_SIGNED/, 'is self-signed (no trusted authority issued it)'],
    [/UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT)/, 'is issued by an authority this runner does not trust'],
    [/ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/, 'is for another host name'],
    [/CERT_/, 'was refused'],
];
function describeNetworkError(error, host, proxy, serviceAddress) {
    const chain = errorChain(error);
    const has = (pattern) => chain.some((link) => pattern.test(`${link.code} ${link.name} ${link.message}`));
    const code = chain.map((link) => link.code).find((c) => c !== '') ?? '';
    const through = proxy ? ` through the proxy ${proxyName(proxy)}` : '';
    const proxyStatus = /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(chain.map((l) => l.message).join(' '));
    if (proxy && proxyStatus?.[1] === '407') {
        const text = proxy.url.username
            ? `the proxy ${proxyName(proxy)} refused the credentials its URL gives (HTTP 407): check the user name and password there (a \`%\`, \`@\`, \`:\` or \`/\` in them written \`%25\`, \`%40\`, \`%3A\`, \`%2F\`)`
            : `the proxy ${proxyName(proxy)} asks for credentials (HTTP 407): put them in ${proxy.variable} as http://user:password@host:port`;
        return { cause: 'proxy-auth', text };
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
    const parser = chain.find((link) => link.name === 'HTTPParserError' || link.code.startsWith('HPE_'));
    if (parser) {
        const why = /\((.+)\)$/.exec(parser.message)?.[1] ?? (parser.code || 'unreadable');
        return {
            cause: 'malformed',
            text: `the answer of ${host}${through} is not valid HTTP/1.1 (${why}): is ${serviceAddress} the service's address, with the right scheme (http or https)?`,
        };
    }
    if (chain.some((link) => link.code === 'UND_ERR_SOCKET' && link.message === 'bad response')) {
        return {
            cause: 'malformed',
            text: `the answer of ${host}${through} is one this client cannot read: an interim \`100 Continue\` it did not ask for, or an answer before any request (the service may have acted on the request)`,
        };
    }
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


  }),

  4080:
  ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

  __nccwpck_require__.d(__webpack_exports__, {
    ZS: () => (  cleaner),
    eo: () => (  secretForms),
    hK: () => (  holdsSecret),
    sO: () => (  cutter)
  });
  var _deps_entities_cjs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1253);
  var _deps_entities_cjs__WEBPACK_IMPORTED_MODULE_0___default =  __nccwpck_require__.n(_deps_entities_cjs__WEBPACK_IMPORTED_MODULE_0__);
  var _log_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3456);
  var _text_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(9439);



function secretForms(secret) {
    if (!secret)
        return [];
    secret = secret.toWellFormed();
    const json = JSON.stringify(secret).slice(1, -1);
    const asciiJson = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const html = (0,_text_js__WEBPACK_IMPORTED_MODULE_2__  .ZD)(secret);
    const lines = secret.split(/[\r\n]+/).filter((line) => line.trim() !== '');
    const shown = (0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(secret);
    const forms = new Set([secret, json, asciiJson, html, shown, ...percentForms(secret), ...lines]);
    return [...forms].sort((a, b) => b.length - a.length);
}
const URI_KEEPS = /[A-Za-z0-9\-_.!~*'()]/;
const FORM_KEEPS = /[A-Za-z0-9\-_.*]/;
function percentForms(secret) {
    const encode = (keeps, bytes, space) => [...secret]
        .map((c) => keeps.test(c)
        ? c
        : c === ' ' && space === '+'
            ? '+'
            : [...bytes(c)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''))
        .join('');
    const utf8 = (c) => Buffer.from(c, 'utf8');
    const forms = [encode(URI_KEEPS, utf8, '%20'), encode(FORM_KEEPS, utf8, '+')];
    if (/[\x80-\xff]/.test(secret) && !/[\u0100-\uffff]/.test(secret)) {
        const latin1 = (c) => Buffer.from(c, 'latin1');
        forms.push(encode(URI_KEEPS, latin1, '%20'), encode(FORM_KEEPS, latin1, '+'));
    }
    return forms;
}
function scrubber(secret) {
    const forms = secretForms(secret);
    const percents = percentDecodings(secret);
    return (text) => {
        const scrubbed = forms.reduce((result, form) => result.replaceAll(form, '***'), text);
        return secret && revealsKey(scrubbed, secret, percents) ? HIDDEN : scrubbed;
    };
}
function cleaner(secret) {
    const scrub = scrubber(secret);
    return (text) => scrub((0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(text));
}
const HIDDEN = '*** (not shown: it held the API key in an escaped form)';
function cutter(secret) {
    const scrub = scrubber(secret);
    const clean = (text) => scrub((0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(text));
    const margin = 64 * (secret.length + 16);
    return (text, max, mark = '…') => {
        if (text.length <= max + 2 * margin)
            return (0,_text_js__WEBPACK_IMPORTED_MODULE_2__  .ml)(clean(text), max, mark);
        const head = scrub((0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(text).slice(0, max + 2 * margin));
        if (head === HIDDEN)
            return HIDDEN;
        const safe = head.slice(0, -margin);
        return safe.length >= max ? `${safe.slice(0, max)}${mark}` : (0,_text_js__WEBPACK_IMPORTED_MODULE_2__  .ml)(clean(text), max, mark);
    };
}
function percentDecodings(secret) {
    const charsets = /[\x80-\xff]/.test(secret) ? ['utf8', 'latin1'] : ['utf8'];
    const pluses = secret.includes(' ') ? [false, true] : [false];
    return charsets.flatMap((charset) => pluses.map((plus) => ({ charset, plus })));
}
const READINGS = 64;
function revealsKey(text, secret, percents) {
    const unescapings = [
        { applies: (value) => (0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(value) !== value, undo: _log_js__WEBPACK_IMPORTED_MODULE_1__  .mz },
        { applies: (value) => value.includes('\\'), undo: unescapeJson },
        { applies: (value) => value.includes('&'), undo: unescapeHtml },
        ...percents.map((decoding) => ({
            applies: (value) => /%[0-9a-fA-F]{2}/.test(value) || (decoding.plus && value.includes('+')),
            undo: (value) => unescapePercent(value, decoding),
        })),
    ];
    const seen = new Set([text]);
    let readings = [text];
    for (let depth = 0; depth < 4 && readings.length > 0; depth++) {
        const next = [];
        for (const reading of readings) {
            for (const unescaping of unescapings) {
                if (!unescaping.applies(reading))
                    continue;
                const undone = unescaping.undo(reading);
                if (seen.has(undone))
                    continue;
                if (undone.includes(secret) || seen.size >= READINGS)
                    return true;
                seen.add(undone);
                next.push(undone);
            }
        }
        readings = next;
    }
    return false;
}
const JSON_ESCAPES = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
function unescapeJson(text) {
    return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/'bfnrt]))/g, (_, hex, char) => hex ? String.fromCharCode(parseInt(hex, 16)) : (JSON_ESCAPES[char] ?? char));
}
function unescapeHtml(text) {
    return text.includes('&') ? (0,_deps_entities_cjs__WEBPACK_IMPORTED_MODULE_0__.decodeHtml)(text) : text;
}
function unescapePercent(text, { charset, plus }) {
    const spaced = plus ? text.replaceAll('+', ' ') : text;
    return spaced.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString(charset));
}
function holdsSecret(text, secret) {
    if (!secret)
        return false;
    if (secret.length < 6)
        return text === secret;
    return cleaner(secret)(text) !== (0,_log_js__WEBPACK_IMPORTED_MODULE_1__  .mz)(text);
}


  }),

  9439:
  ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

  __nccwpck_require__.d(__webpack_exports__, {
    ZD: () => (  escapeHtml),
    ZH: () => (  capitalize),
    g1: () => (  bugLines),
    hD: () => (  quote),
    ml: () => (  shorten),
    vj: () => (  TRUNCATED),
    z3: () => (  isBlank)
  });
  var _constants_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2851);

function shorten(text, max, mark = '…') {
    return text.length > max ? `${text.slice(0, max)}${mark}` : text;
}
function quote(value, max = _constants_js__WEBPACK_IMPORTED_MODULE_0__  .xu.quotedValueLength) {
    return `'${shorten(value, max)}'`;
}
function isBlank(text) {
    return BLANK.test(text);
}
const BLANK = /^[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}]*$/u;
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


  }),

  8628:
  ((module) => {

module.exports = require("./node-http2.js");

  }),

  4589:
  ((module) => {

module.exports = require("node:assert");

  }),

  6698:
  ((module) => {

module.exports = require("node:async_hooks");

  }),

  4573:
  ((module) => {

module.exports = require("node:buffer");

  }),

  7598:
  ((module) => {

module.exports = require("node:crypto");

  }),

  3053:
  ((module) => {

module.exports = require("node:diagnostics_channel");

  }),

  8474:
  ((module) => {

module.exports = require("node:events");

  }),

  7067:
  ((module) => {

module.exports = require("node:http");

  }),

  7030:
  ((module) => {

module.exports = require("node:net");

  }),

  643:
  ((module) => {

module.exports = require("node:perf_hooks");

  }),

  1792:
  ((module) => {

module.exports = require("node:querystring");

  }),

  99:
  ((module) => {

module.exports = require("node:sqlite");

  }),

  7075:
  ((module) => {

module.exports = require("node:stream");

  }),

  7830:
  ((module) => {

module.exports = require("node:stream/web");

  }),

  8500:
  ((module) => {

module.exports = require("node:timers/promises");

  }),

  1692:
  ((module) => {

module.exports = require("node:tls");

  }),

  3136:
  ((module) => {

module.exports = require("node:url");

  }),

  7975:
  ((module) => {

module.exports = require("node:util");

  }),

  3429:
  ((module) => {

module.exports = require("node:util/types");

  }),

  5919:
  ((module) => {

module.exports = require("node:worker_threads");

  }),

  8522:
  ((module) => {

module.exports = require("node:zlib");

  }),

  1253:
  ((module, __unused_webpack_exports, __nccwpck_require__) => {



let decodeHTML;

function decodeHtml(text) {
  decodeHTML ??= (__nccwpck_require__(4183)  .Gz);
  return decodeHTML(text);
}

module.exports = { decodeHtml };


  }),

  4183:
  ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


__nccwpck_require__.d(__webpack_exports__, {
  Gz: () => (  decodeHTML)
});


; 
const c1 = [
    8364, 0, 8218, 402, 8222, 8230, 8224, 8225, 710, 8240, 352, 8249, 338, 0,
    381, 0, 0, 8216, 8217, 8220, 8221, 8226, 8211, 8212, 732, 8482, 353, 8250,
    339, 0, 382, 376,
];
function isInvalidCodePoint(codePoint) {
    return (codePoint === 0 ||
        (codePoint >= 0xd8_00 && codePoint <= 0xdf_ff) ||
        codePoint > 0x10_ff_ff);
}
function decode_codepoint_replaceCodePoint(codePoint) {
    if (isInvalidCodePoint(codePoint)) {
        return 0xff_fd;
    }
    if (codePoint >= 128 && codePoint <= 159) {
        return c1[codePoint - 128] || codePoint;
    }
    return codePoint;
}
function decode_codepoint_replaceCodePointXML(codePoint) {
    return isInvalidCodePoint(codePoint) ? 0xff_fd : codePoint;
}
function codePointToString(codePoint) {
    return (codePoint - 1) >>> 0 < 0x7f || (codePoint - 0xa0) >>> 0 < 0xd7_60
        ? String.fromCharCode(codePoint)
        : String.fromCodePoint(decode_codepoint_replaceCodePoint(codePoint));
}
; 
const htmlDecodeData = ["Q=¨`p0AEligMPacutebrevecircyfrgravelphamacrndogonpfpplyFunctionringscrsigntildeumlBackslashrvwedcyecausernoullistafropfrevescrumpeqCHcyOPYacutepitalDifferentialDyleyscaronedilirconintdotedillanterDotfrhiircleDotMinusPlusTimeslockwiseContourIntegralseCurlyDoubleQuoteQuoteolonengruentinttourIntegralpfroductunterClockwiseContourIntegralrossscrupCapDDotrahdJcyScyZcyaggerrrshvcaronyeltafriacriticalAcuteDotubleAcuteGraveTildemondfferentialDopftDotEqualubleContourIntegralDotwnArrowLeftArrowRightArrowTeeongLeftArrowRightArrowRightArrowRightArrowTeeUpArrowDownArrowVerticalBarwnArrowBarUpArrowBreveLeftRightVectorTeeVectorVectorBarRightTeeVectorVectorBarTeeArrowarrowscrtrokENGTHacutecaronircydotfrgravelementmacrptySmallSquareVerySmallSquareogonpfpsilonqualTildeilibriumscrimtaumlxistsponentialEFcyfrilledSmallSquareVerySmallSquareopfrAlluriertrfscrGJcyTammadbrevecedilircydotfrgopfreaterEqualLessFullEqualGreaterLessSlantEqualTildescrtHARDcyacektcircfrilbertSpaceopfrizontalLinescrtrokumpDownHumpEqualIEcyJligOcyacutecircydotfrgravemacrginaryIpliesntegralrsectionvisibleCommaTimesogonpftascrtildeukcymlJcircyfropfscrercyukcyKHcyJcyappacedilyfropfscrLJcyTacutembdangplacetrfrrcaronedilyeftAngleBracketrrowBarRightArrowCeilingDoubleBracketwnTeeVectorVectorBarFloorRightArrowVectorTeeArrowVectorriangleBarEqualUpDownVectorTeeVectorVectorBarVectorBararrowrightarrowssEqualGreaterFullEqualGreaterLessSlantEqualTildefrleftarrowmidotongLeftArrowRightArrowRightArrowleftarrowrightarrowrightarrowpfwerLeftArrowRightArrowscrhtroktMapcyediumSpacellintrffrinusPlusopfscruNJcyacutecaronedilyegativeMediumSpaceThickSpacenSpaceVeryThinSpacestedGreaterGreaterLessLesswLinefroBreaknBreakingSpacepftCongruentupCapDoubleVerticalBarElementqualTildexistsGreaterEqualFullEqualGreaterLessSlantEqualTildeHumpDownHumpEqualLeftTriangleBarEqualssEqualGreaterLessSlantEqualTildeNestedGreaterGreaterLessLessPrecedesEqualSlantEqualReverseElementightTriangleBarEqualSquareSubsetEqualpersetEqualubsetEqualcceedsEqualSlantEqualTildepersetEqualTildeEqualFullEqualTildeVerticalBarscrtildeuOEligacutecircydblacfrgravemacregaicronopfpenCurlyDoubleQuoteQuoterscrlashtildemesumlverBarraceketParenthesisPartialDcyfrhiilusMinusoincareplanepfrecedesEqualSlantEqualTildeimeoductportionalscriQUOTfropfscrRBarrEGacutengrrtlcaronedilyeverseElementquilibriumUpEquilibriumfrhoightAngleBracketrrowBarLeftArrowCeilingDoubleBracketwnTeeVectorVectorBarFloorTeeArrowVectorriangleBarEqualUpDownVectorTeeVectorVectorBarVectorBararrowopfundImpliesrightarrowscrhuleDelayedSHCHcycyOFTcyacutecaronedilircyfrhortDownArrowLeftArrowRightArrowUpArrowigmamallCircleopfqrtuareIntersectionSubsetEqualpersetEqualUnionscrtarubsetEqualcceedsEqualSlantEqualTildehThatmpersetEqualsetTHORNRADESHcycyabucaronedilyfrhereforetaickSpacenSpaceildeEqualFullEqualTildeopfripleDotscrtrokUacuterrocirbrcyevecircydblacfrgravemacrnderBarraceketParenthesisionPlusogonpfpArrowBarDownArrowDownArrowEquilibriumTeeArrowarrowdownarrowperLeftArrowRightArrowsilonringscrtildeumlVDashbarcydashleerbarticalBarLineSeparatorTildeyThinSpacefropfscrvdashWcircedgefropfscrXfriopfscrYAcyIcyUcyacutecircyfropfscrumlZHcyacutecaronydoteroWidthSpacetafropfscraacutebrevecEdircuteyeligfrgravelefsymphphamacrlgpndanddslopevgelemsdaabcdefghrtvbdsphtzarrogonpfpEacireidosproxeqringscrtympeqtildeumlwconintintbNotackcongepsilonprimesimeqrveewedgebrktbrkcongydquoecausemptyvpsirnoutahweenfrigcapircupodotplustimessqcuptartriangledownupuplusveewedgekarowlacklozengesquaretriangledownleftrightnkk12434ocknequivotopfttomwtiexDLRlrHDUduULRlrVHLRhlrboxdLRlrhDUduminusplustimesuLRlrvHLRhlrprimerevevbarscremiimeolbhsubulletmpEeqcacutepandbrcupcapupdotsretoncapsronedilircupssmdotedilmptyvnterdotfrhcyeckmarkiirEceqlearrowleftrightdRSastcircdashefnintmidscirlubsuitoloneqmmatpfnlementxesngdotintpfrodysrrarrossscrubepetdotudarrlreprsclarrppbrcapcapupdotorsrarrmlyeqprecsuccveewedgerenvearrowleftrightveewedwconintintylctydArrHaraggerlethrrshvbkarowlaccaronydaggerrrotseqegltamptyvfishtrharlriamondsuitsegammasinvideontimesonxjcylcornropollarpfteqdotminusplussquareublebarwedgewnarrowdownarrowsharpoonleftrightrbkarowcornropscryoltroktdotrifuarrharwanglezcyigrarreDDototacutestercaronircolonydotefDotrgravesdotlinterslsdotmacrptysetvsp134ngspogonpfparsllussilonvqcircolonsimlantgtrlessualsestivDDvparslrDotarrscrdotimtahumlroxclistpectationonentialefallingdotseqcyemalefiligligligriligjliglatligtnsnofopfrallkvpartintrac123456823534584556878slownscrgElacutemmadpbrevecircydotelqqslantsccdotollesfrggimeljcylEajnEapproxeqqsimopfravescrimeltccirdotlParquestrapproxrrdoteqlessqlesslesssimvertneqqnEhArrairsplfmiltrdcyrcirwbarcirceartsuitlliprconfrksearowwarowoarrmthtokleftarrowrightarrowpfrbarscrlashtrokybullpheniacutecircyecyxclffrgraveiiintntnfinotajligmacrgelinepartthofpedncarefintieodottcalegersrcallarhkprodocygonpftaprodquestscrinEdotsvvtildeukcymljcircyfrmathopfscrercyukcykappavcedilyfrgreenhcyjcyopfscrlAarrrrtailBarrEgHaracuteemptyvgranmbdangdlepquorrbfsfshklpplsimtltailesbarrbrkracekkeslducaronedililubydcaquorrdharusharsheftarrowtailharpoondownupleftarrowsrightarrowsharpoonssquigarrowthreetimesgqqslantsccdotorgessapproxdoteqgtrqgtrgtrsimfishtloorrgEhardulblkjcylarrcornerhardtrimidotoustachenEapproxeqqsimoangrrbrkngleftarrowrightarrowmapstorightarrowoparrowleftrightparflustimeswastbarzengefparltrarrcornerhardmtrisaquocrhimegqbuortroktccirdothreeimeslarrquestrPariefurdsharuharvertneqqnEmDDotacrletesepstodownleftuprkercommaydasheasuredanglefrhoicrodastcirdotnusbdulcpdrnplusodelspfpscrtposultimapmapnGgtvLeftarrowrightarrowltvRightarrowVDashdashablacutengpEidosproxturalsbspumpecapronedilongdotupydasheArrarhkrowdotquivsearimxistsfrgEeqqslantssimtrhArrarrparisdvjcylArrEarrdreftarrowrightarrowqqslantsssimtriemidopftinEdotvabcnivabcparallelsltolintrcueeceqrArrarrcwightarrowtriesccueerhortmidparallelimeqmidparqsubepeubEeseteqqcceqpEeseteqqtglildelgrianglelefteqrightequmerospvDashHarrapdashgetinfinlArretrierArrtriesimwArrarhkrownearoSacutestcircydashblacivotsoldeligfcirrgonravethbarmintlarrcirrossinetmacregaicrondnusopfparerplusrarrderoffmigoforslopevscrlasholtildemesasumlvbarparallelsimltcyercntiodmilptenkfrhivmmatoneitchforkvlanckhkvusacirbcirdouemnsimtwomointintpfundrEapcueecapproxcurlyeqeqnapproxeqqsimsimimesnEapsimodfalarlinesurfptosimurelscriuncspqfrintopfprimescruaternionsintesteqotrAarrrrtailBarrHaraceutedicemptyvngdelequorrapbfscfshklpplsimtlwtailionalsbarrbrkracekkeslducaronedililubydcaldharquorshealinepartsctgfishtloorrhardulovightarrowtailharpoondownupleftarrowsharpoonsrightarrowssquigarrowthreetimesngsingdotseqlarrharmmoustachenmidoangrrbrkparflustimespargtpolintrarrsaquocrhqbuorthreeimesriefltriuluharxsacutebquocEaproncueedilircnEapsimpolintsimydotbeeArrarhkrowctmiswartminusnxtfrownharpchcyyortmidparallelyigmafvmdoteqgElEneplusrarrlarrmallsetminusshpeparslidletesoftcylbarpfpadesuitrqcapsupssubeseteqpesetequareffrarrscretmnmiletarftarfraightepsilonphinsubEdotedotmultnEeplusrarrseteqqneqqimubpccapproxcurlyeqeqnapproxeqqsimsimmngp123EdotsubedothsolublarrmultnEeplusseteqqneqqimubpwArrarhkrownwarzligtargetubrkcaronedilydotelrecfrhere4foretasymvickapproxsimnspkapsimornildemesbardntoeapbotcirforksaprimeradeiangledownlefteqqrighteqdoteminusplussbtimepeziumscryhcytrokwixtoheadleftarrowrightarrowuArrHaracuterrbrcyevecircydarrblacharfishtrgraveharlrblklcornerroptrimacrlogonpfparrowdownarrowharpoonleftrightlussihlonuparrowsrcornerropingtriscrtdotilderifuarrmlwanglevArrBarvDashangrtrepsilonkappanothingphiiroptorhosigmaubsetneqqpsetneqqthetariangleleftrightcydasheebareqlliprbartfrltrinsubpopfproprtriscrubnEepnEezigzagwcircedbargeqierpfropfpreathscrxcapircupdtrifrhArrarrilArrarrmapnisodotpflustimerArrarrscrqcupuplustriveewedgeyacuteycircyenfricyopfscrucymlzacutecaronydoteetrftafrhcyigrarropfscrwjnjC(D%D($(D'%$$ED($'$'$%$'%E$/D'$F%'D(D&#,%%&&$%$)%+%%$E$F$'$&$(#'D&$(%$&4%($(E'%&%($&$)%*$%$%$+)()')($:&5-($'($%*&&&/%%&)%@$'$F$%&&#%%)$&$&$&$(%%%&$(%$$%&%$E$2.&0,.(.(&'%.$F%$&&&(%6)&+*),---&*/1---)-.&)*+,).%*,&,*'('2+,+)1&'1,)2&'&*('($F%'#&D%D($(E&%$$&$ED($)$'%1(2$'%E$)$'((&+$&%%$%D&$(%-#&$E$3)2$F%'%+$&#'D$$'($$($(%&%$$&$E$$$F$./'*,***'*-*($F$$#)$'%$$'$%$.$&%/$&%'$.'(#'$'$&D(D'%$$&$%D($$%&&*%($%&('+%/,($'%E%%$&$($'E%#(%$$E$F$F%'$'#'$&$'$(%$$E$F$F#'D$$(%'%%%+%%$(%'%$$2(',&,-'*'0).+)1&'('-,)'&*(*)(*/&/('/),))/&')-&'('-%1','*'''-'($E$$%+$($/+-'-',+-'-%E%/(-$&%$%'$$#&$%$-%*$E$+$F$&$$#'$($(%'%$$5+-.)+0%5)+%($E$)%1%%%$&,'(&4&*''+H'(&*-(-L-J-'-M-(&O*H&/2F2((%*(***G*M*(&W,K&+.H.-&1'/3F3(&O2(.I4('H,(().H.-.H(I.(&(+(+,+(&.$FD($$#(D(D'%$$($ED($'%&%($F$6,($$$FE'D(&&D&$)('+&'.#+$%$E$%$$$+$/%%$$%)+(+-+(%&%(&*-%$F%$C'$E$&$F#(D%$(%%%%'%$(%'%$$$%/+-*0$%$%$3)'-&-,(*(0*.,)2&(((&+(+))*0&0((/*,*)0&().&(($&%-$-$&%$$-#)%%$($($$%'%'%&%$$E$0(,(-(*$'$-$F$&%')/))/(+)1()($F$&$%&&)(%)+(+-+(&(%$%$&(+(&&C($'$'%%$%%$$(%'%$$E$+&%%K&)$'(((,(($F$+$F%'C)%%''$'&&D'%$$($ED($'$*)',&(.%&('$'%E$)*&*,%,%.%&((%(%,%/(-%%'&$'$F$(D&#($&$%$'($$%%'&$'*+'+,+(&-$E$F$F$(#($'$E$F$F#F$$$F$F#'$&$&D($'%$$E$F$F$&#'$($(%$$&$0%%$%$&$FC)$($$%D%$E&E&%$D'$$%DD($)&%%&$'&%E$$%&&&$&(&$%$&$&%&&)%*$*$*$*$*$*$*$&%(%*$&&'$&'$'%E$$%$%'%$%%%%%')%D'$F%$%&(%D(D&$*%&#'$*'*'('&*%%'&&)%$&''$'%$$'$()$%(%&%'%%&$&'$E$('&'%&''''(&('&&/.%&(&&&($($.()(+0'0'0(&%%&'$&%%&$E&G%%$F%$&&%'%&'$'$'$&$'$'$'$'$&%'$'$'$&$'$'$'$'$'$'$&&&%'$'$'$&$'$'$'$'$&(&'&(&%'$'$'$&$'$'$'$'$'$'$$($'E'$F%&%%'$%%'$''$&'%%%'$'$($#)%$&&&(&&'%&&&D%&&%$'&&E'%&%&(%$&D'%(E%'($E$&%&('%$$%&$&$'%'..()%*$*&*'*'&$&(&&&'$'(&$'($)$%&($&$'%'))&%%'&&&%E&&F$'%$'%&$F%%'$&$'$$'$))$%&&%%')$%$&(&&'%&&&%&D%')$&+*'(&((F&&.-(%&%&$*%&$(#'$&$(%'%%%%'$$)%&$(%$$$%(&%%(D%%&%($(%D$''$$&'&*''$%$%(%&%$F&)*&&$&$(&&$(%E%$&%(&&(&'&)%/%*'-'..($*%'&&$F&$%%%'$'%%'$$'%&$)$&%)#(%%D(%'$(%%G$%'%$$&$$$'%D$$E'%$&&$$%)%$%$&&$'%&(&($%%'%($$%%%$'%E$&'%%&%%'&'$$(&'%&&**'%'&&&%(%%)$'%&$&%&%%$%E$D&%%$&%&%,&,#0$%$($(%&&&%D$'$G$&%&%&$&$F%'&$'$$*D(($H$($($($'%($G%($($'%'%($'%&%%&$F#%%$$(%&($%$$($'%$$&$$%$%$&$&(%$&%&&)$*$&D'%$E$$%$$'$&$$%$%$%$$%%%''%$&$'$%&$F$'$&%%'$'$D$%%&%%&%'%(%*'%&&&)((&'&&$K%E#'$(%%%'%'&$'&'$$&$'$()&%'%'$E$*&($'%'%.'-%E%'$F%'%'$(%'C)$$E&%$$&E&$%%DD($$%'&%%'%&$'$'&%''''&%%%%&$$%'%&(&%'%$&&&(''&(&'$&%&%E%%$'D($F%%'$'&'$($'$$$%'$'E%#(%$$E$'$F$F%'$'#(($$(%$$E$($&$&$F$F#(%%%'$'$$%$$&$(%)%'%'%%'$'%%$E&%%'$(%'%'%'%'%'&'%%$&&&$'D$'%&%'($&%'&)$$(%'&%%%%$$&%&($%(&(%%$$%*,''..%'-'-1$,+,-'-%$%$&$&(%$&%&&)$*$&D'%&*'&'()''&'&$(%'%D$$%$$''$($%&$&$$%&%)%'%&$(%')'$%%%''%$&$'$%&$'&%%&%.+-')'-%.,(%&&D&&%(%'&&%$&'&$$&'%$'%)%&($%$%&$(%E%$%%'$'$%%&%($%'D$%%&%%&%'%'%'%(%'&$'$'$$*&'$K%E#(D&%%&$'&%$&&)')')%%'$(%$$'$/$E$%D'%$&&&&F&%&($($)$$&%%$($(%E$$$F%'$$%)%&#F%D&D$,(-%D%D&D$-$(%'$'%'%E%$&D&E&%&'%&(%*$D&%F(D$&&&%'%&(F%%%$$'$$%&%''$(%%F%'%'&E%')$$E$E%$&$'D'H&D%&%$&$$'%&%&$$%$&$%$$&$'%D%&%%%$&*(-&$'D'H&D'$%&%$&%($$&$FE$&%(D(F(%)$)$&%(%)$)$$&'('E'D%(%$&&&D'$(E$'%&(D(D%,%&($$%&&&D&D%*)+%%'$($%&%&%((%%%'D'$'F*%,D&%(E&$'D'$'F*%,D$&E'%%%.0%,(1%$$%$&&&%$(%'%E%'%E&D%(%'&D&D'F%'&G%F$'%''$(%%'#%D(%%$&G$%$$'%'%%%%%'$'$'%D$&E'%$$'%$$&$'%&&'%&%$$'%&%(&$&&$F$&%&%&$$%&%$&%(%F$F$%'%%%(%$$&E'%%D(&&)%D&$'#&F$''&&'$&$$%$(&&&&&$&'$E$%&$%'%&$$%*%$$()$'%%%'''$'&'%($'$G%'&'&$$$*%EE&$$%$%%%&%$&$')'*'%'*(&(&'&%&($%%&%&&%%&(''''&$'%%&%'$F%$$(#F$&$F$($F$-'&%&(%E%#(%%%'$'$&$F&&%&%)%%'$'$'%E&%%'%'$(%'$'%'%'%'%'&'%'$%'&%('$'%&%'($&%'&)$$(%'&%%%%$$&%(%&($%%$&'&'''$%%E$$(%'%D$''$($%$&$$,-'(./%(-,+(.(-(-%%%-$'%&%$$()'$'$'&%%&%&&D&&%($&'%%)$'$(%E%$%%&%($$(%'%%'$'$''$)$$#)$'$$%$%%&&%&%$&&%&%%&%&&%)%&%$$&'$'$$'%''$(%E%%%%'%)'$%%$E&&$'%'&$%)(+E$$'($($%$&&&$'$&$'$&$'$&%&'&'$'$/&&%)%%&%%$&$'D$(%$&$'%%E$()&&$$'(D&%(D%&($(&+%'$($(&+%%$&&($&$$'$F%'%'%'$&'$%0+&&%$%&$&&&$'&&'&%'$&'&'&&)%+$)&,$'%'%($%%')'*'%'*(&(&'&%$%%%$F$F$F$&$&&'&&$'&&'(%&'&'&%'$&'&&)%+$)&,$'%'%($$'%''$(%%'D'#)%$$&$(%'%$$&$($E$(('&%(&($%,(&&&%&&&E&$'E&($)%($%%$&%$&&&&&D'&%%$($'%)+'+'/%+$+(0%&&&$&(&'&%&'%)$F&$%&%'$'%1*-#'$&D(%%$'&&D'%$$'%'%&$(%DD($''$%&$()%&&%&$'E$$'%E$)%,%.,(%&%%'$'&%+$()%&&%&%&$F$'%'%%'$$'E%$)#'$&'$$'$(%+&(&*&&'$'(&$'%&('K/D(J/D&('..($%$'$%&&&%%'%'&$$E$'$G'D$F$'$'$F%G(D&F(D$)#($(&%($%'$E$F$$$$%'$F#'%&%%$'$E$'%&$$$'%&$&$&$'%E&&%'$'%&$F%'$(%&$&$(C)&$$'%$D%$E$&$F$F$&E%#)$(%$$&$(%%$E$&$)$F$F$%%%0@0000H8H40H000047P00P@001000@0B0HP@:H9T8P000LB8d@800@I0<110000QQ8400P10030005940@410020000Q02000@0200000@P0101@8000440400000000808000000000@00000000P`0000000040400@0004<000000000008000030000000000P020T400020@0@00000000000000000000000000P0000000400400000400220080000100000000000000000P000000000000P000000@00402000000000@00000000000000000000040000000000000", "Æ&Á\u0102Â\u0410\uD835\uDD04À\u0391\u0100\u2A53\u0104\uD835\uDD38\u2061Å\uD835\uDC9C\u2254ÃÄ\u2216\u2AE7\u2306\u0411\u2235\u212C\u0392\uD835\uDD05\uD835\uDD39\u02D8\u212C\u224E\u0427©\u0106\u22D2\u2145\u212D\u010CÇ\u0108\u2230\u010A¸·\u212D\u03A7\u2299\u2296\u2295\u2297\u2232\u201D\u2019\u2237\u2A74\u2261\u222F\u222E\u2102\u2210\u2233\u2A2F\uD835\uDC9E\u22D3\u224D\u2145\u2911\u0402\u0405\u040F\u2021\u21A1\u2AE4\u010E\u0414\u2207\u0394\uD835\uDD07´\u02D9\u02DD`\u02DC\u22C4\u2146\uD835\uDD3B¨\u20DC\u2250\u222F¨\u21D3\u21D0\u21D4\u2AE4\u27F8\u27FA\u27F9\u21D2\u22A8\u21D1\u21D5\u2225\u2193\u2913\u21F5\u0311\u2950\u295E\u21BD\u2956\u295F\u21C1\u2957\u22A4\u21A7\u21D3\uD835\uDC9F\u0110\u014AÐÉ\u011AÊ\u042D\u0116\uD835\uDD08È\u2208\u0112\u25FB\u25AB\u0118\uD835\uDD3C\u0395\u2A75\u2242\u21CC\u2130\u2A73\u0397Ë\u2203\u2147\u0424\uD835\uDD09\u25FC\u25AA\uD835\uDD3D\u2200\u2131\u2131\u0403>\u0393\u03DC\u011E\u0122\u011C\u0413\u0120\uD835\uDD0A\u22D9\uD835\uDD3E\u2265\u22DB\u2267\u2AA2\u2277\u2A7E\u2273\uD835\uDCA2\u226B\u042A\u02C7^\u0124\u210C\u210B\u210D\u2500\u210B\u0126\u224E\u224F\u0415\u0132\u0401ÍÎ\u0418\u0130\u2111Ì\u2111\u012A\u2148\u21D2\u222C\u222B\u22C2\u2063\u2062\u012E\uD835\uDD40\u0399\u2110\u0128\u0406Ï\u0134\u0419\uD835\uDD0D\uD835\uDD41\uD835\uDCA5\u0408\u0404\u0425\u040C\u039A\u0136\u041A\uD835\uDD0E\uD835\uDD42\uD835\uDCA6\u0409<\u0139\u039B\u27EA\u2112\u219E\u013D\u013B\u041B\u27E8\u2190\u21E4\u21C6\u2308\u27E6\u2961\u21C3\u2959\u230A\u2194\u294E\u22A3\u21A4\u295A\u22B2\u29CF\u22B4\u2951\u2960\u21BF\u2958\u21BC\u2952\u21D0\u21D4\u22DA\u2266\u2276\u2AA1\u2A7D\u2272\uD835\uDD0F\u22D8\u21DA\u013F\u27F5\u27F7\u27F6\u27F8\u27FA\u27F9\uD835\uDD43\u2199\u2198\u2112\u21B0\u0141\u226A\u2905\u041C\u205F\u2133\uD835\uDD10\u2213\uD835\uDD44\u2133\u039C\u040A\u0143\u0147\u0145\u041D\u200B\u200B\u200B\u200B\u226B\u226A\n\uD835\uDD11\u2060 \u2115\u2AEC\u2262\u226D\u2226\u2209\u2260\u2242\u0338\u2204\u226F\u2271\u2267\u0338\u226B\u0338\u2279\u2A7E\u0338\u2275\u224E\u0338\u224F\u0338\u22EA\u29CF\u0338\u22EC\u226E\u2270\u2278\u226A\u0338\u2A7D\u0338\u2274\u2AA2\u0338\u2AA1\u0338\u2280\u2AAF\u0338\u22E0\u220C\u22EB\u29D0\u0338\u22ED\u228F\u0338\u22E2\u2290\u0338\u22E3\u2282\u20D2\u2288\u2281\u2AB0\u0338\u22E1\u227F\u0338\u2283\u20D2\u2289\u2241\u2244\u2247\u2249\u2224\uD835\uDCA9Ñ\u039D\u0152ÓÔ\u041E\u0150\uD835\uDD12Ò\u014C\u03A9\u039F\uD835\uDD46\u201C\u2018\u2A54\uD835\uDCAAØÕ\u2A37Ö\u203E\u23DE\u23B4\u23DC\u2202\u041F\uD835\uDD13\u03A6\u03A0±\u210C\u2119\u2ABB\u227A\u2AAF\u227C\u227E\u2033\u220F\u2237\u221D\uD835\uDCAB\u03A8\"\uD835\uDD14\u211A\uD835\uDCAC\u2910®\u0154\u27EB\u21A0\u2916\u0158\u0156\u0420\u211C\u220B\u21CB\u296F\u211C\u03A1\u27E9\u2192\u21E5\u21C4\u2309\u27E7\u295D\u21C2\u2955\u230B\u22A2\u21A6\u295B\u22B3\u29D0\u22B5\u294F\u295C\u21BE\u2954\u21C0\u2953\u21D2\u211D\u2970\u21DB\u211B\u21B1\u29F4\u0429\u0428\u042C\u015A\u2ABC\u0160\u015E\u015C\u0421\uD835\uDD16\u2193\u2190\u2192\u2191\u03A3\u2218\uD835\uDD4A\u221A\u25A1\u2293\u228F\u2291\u2290\u2292\u2294\uD835\uDCAE\u22C6\u22D0\u22D0\u2286\u227B\u2AB0\u227D\u227F\u220B\u2211\u22D1\u2283\u2287\u22D1Þ\u2122\u040B\u0426\t\u03A4\u0164\u0162\u0422\uD835\uDD17\u2234\u0398\u205F\u200A\u2009\u223C\u2243\u2245\u2248\uD835\uDD4B\u20DB\uD835\uDCAF\u0166Ú\u219F\u2949\u040E\u016CÛ\u0423\u0170\uD835\uDD18Ù\u016A_\u23DF\u23B5\u23DD\u22C3\u228E\u0172\uD835\uDD4C\u2191\u2912\u21C5\u2195\u296E\u22A5\u21A5\u21D1\u21D5\u2196\u2197\u03D2\u03A5\u016E\uD835\uDCB0\u0168Ü\u22AB\u2AEB\u0412\u22A9\u2AE6\u22C1\u2016\u2016\u2223|\u2758\u2240\u200A\uD835\uDD19\uD835\uDD4D\uD835\uDCB1\u22AA\u0174\u22C0\uD835\uDD1A\uD835\uDD4E\uD835\uDCB2\uD835\uDD1B\u039E\uD835\uDD4F\uD835\uDCB3\u042F\u0407\u042EÝ\u0176\u042B\uD835\uDD1C\uD835\uDD50\uD835\uDCB4\u0178\u0416\u0179\u017D\u0417\u017B\u200B\u0396\u2128\u2124\uD835\uDCB5á\u0103\u223E\u223E\u0333\u223Fâ´\u0430æ\u2061\uD835\uDD1Eà\u2135\u2135\u03B1\u0101\u2A3F&\u2227\u2A55\u2A5C\u2A58\u2A5A\u2220\u29A4\u2220\u2221\u29A8\u29A9\u29AA\u29AB\u29AC\u29AD\u29AE\u29AF\u221F\u22BE\u299D\u2222Å\u237C\u0105\uD835\uDD52\u2248\u2A70\u2A6F\u224A\u224B'\u2248\u224Aå\uD835\uDCB6*\u2248\u224Dãä\u2233\u2A11\u2AED\u224C\u03F6\u2035\u223D\u22CD\u22BD\u2305\u2305\u23B5\u23B6\u224C\u0431\u201E\u2235\u2235\u29B0\u03F6\u212C\u03B2\u2136\u226C\uD835\uDD1F\u22C2\u25EF\u22C3\u2A00\u2A01\u2A02\u2A06\u2605\u25BD\u25B3\u2A04\u22C1\u22C0\u290D\u29EB\u25AA\u25B4\u25BE\u25C2\u25B8\u2423\u2592\u2591\u2593\u2588=\u20E5\u2261\u20E5\u2310\uD835\uDD53\u22A5\u22A5\u22C8\u2557\u2554\u2556\u2553\u2550\u2566\u2569\u2564\u2567\u255D\u255A\u255C\u2559\u2551\u256C\u2563\u2560\u256B\u2562\u255F\u29C9\u2555\u2552\u2510\u250C\u2500\u2565\u2568\u252C\u2534\u229F\u229E\u22A0\u255B\u2558\u2518\u2514\u2502\u256A\u2561\u255E\u253C\u2524\u251C\u2035\u02D8¦\uD835\uDCB7\u204F\u223D\u22CD\\\u29C5\u27C8\u2022\u2022\u224E\u2AAE\u224F\u224F\u0107\u2229\u2A44\u2A49\u2A4B\u2A47\u2A40\u2229\uFE00\u2041\u02C7\u2A4D\u010Dç\u0109\u2A4C\u2A50\u010B¸\u29B2¢·\uD835\uDD20\u0447\u2713\u2713\u03C7\u25CB\u29C3\u02C6\u2257\u21BA\u21BB®\u24C8\u229B\u229A\u229D\u2257\u2A10\u2AEF\u29C2\u2663\u2663:\u2254\u2254,@\u2201\u2218\u2201\u2102\u2245\u2A6D\u222E\uD835\uDD54\u2210©\u2117\u21B5\u2717\uD835\uDCB8\u2ACF\u2AD1\u2AD0\u2AD2\u22EF\u2938\u2935\u22DE\u22DF\u21B6\u293D\u222A\u2A48\u2A46\u2A4A\u228D\u2A45\u222A\uFE00\u21B7\u293C\u22DE\u22DF\u22CE\u22CF¤\u21B6\u21B7\u22CE\u22CF\u2232\u2231\u232D\u21D3\u2965\u2020\u2138\u2193\u2010\u22A3\u290F\u02DD\u010F\u0434\u2146\u2021\u21CA\u2A77°\u03B4\u29B1\u297F\uD835\uDD21\u21C3\u21C2\u22C4\u22C4\u2666\u2666¨\u03DD\u22F2÷÷\u22C7\u22C7\u0452\u231E\u230D$\uD835\uDD55\u02D9\u2250\u2251\u2238\u2214\u22A1\u2306\u2193\u21CA\u21C3\u21C2\u2910\u231F\u230C\uD835\uDCB9\u0455\u29F6\u0111\u22F1\u25BF\u25BE\u21F5\u296F\u29A6\u045F\u27FF\u2A77\u2251é\u2A6E\u011B\u2256ê\u2255\u044D\u0117\u2147\u2252\uD835\uDD22\u2A9Aè\u2A96\u2A98\u2A99\u23E7\u2113\u2A95\u2A97\u0113\u2205\u2205\u2205\u2003\u2004\u2005\u014B\u2002\u0119\uD835\uDD56\u22D5\u29E3\u2A71\u03B5\u03B5\u03F5\u2256\u2255\u2242\u2A96\u2A95=\u225F\u2261\u2A78\u29E5\u2253\u2971\u212F\u2250\u2242\u03B7ðë\u20AC!\u2203\u2130\u2147\u2252\u0444\u2640\uFB03\uFB00\uFB04\uD835\uDD23\uFB01fj\u266D\uFB02\u25B1\u0192\uD835\uDD57\u2200\u22D4\u2AD9\u2A0D½\u2153¼\u2155\u2159\u215B\u2154\u2156¾\u2157\u215C\u2158\u215A\u215D\u215E\u2044\u2322\uD835\uDCBB\u2267\u2A8C\u01F5\u03B3\u03DD\u2A86\u011F\u011D\u0433\u0121\u2265\u22DB\u2265\u2267\u2A7E\u2A7E\u2AA9\u2A80\u2A82\u2A84\u22DB\uFE00\u2A94\uD835\uDD24\u226B\u22D9\u2137\u0453\u2277\u2A92\u2AA5\u2AA4\u2269\u2A8A\u2A8A\u2A88\u2A88\u2269\u22E7\uD835\uDD58`\u210A\u2273\u2A8E\u2A90>\u2AA7\u2A7A\u22D7\u2995\u2A7C\u2A86\u2978\u22D7\u22DB\u2A8C\u2277\u2273\u2269\uFE00\u2269\uFE00\u21D4\u200A½\u210B\u044A\u2194\u2948\u21AD\u210F\u0125\u2665\u2665\u2026\u22B9\uD835\uDD25\u2925\u2926\u21FF\u223B\u21A9\u21AA\uD835\uDD59\u2015\uD835\uDCBD\u210F\u0127\u2043\u2010í\u2063î\u0438\u0435¡\u21D4\uD835\uDD26ì\u2148\u2A0C\u222D\u29DC\u2129\u0133\u012B\u2111\u2110\u2111\u0131\u22B7\u01B5\u2208\u2105\u221E\u29DD\u0131\u222B\u22BA\u2124\u22BA\u2A17\u2A3C\u0451\u012F\uD835\uDD5A\u03B9\u2A3C¿\uD835\uDCBE\u2208\u22F9\u22F5\u22F4\u22F3\u2208\u2062\u0129\u0456ï\u0135\u0439\uD835\uDD27\u0237\uD835\uDD5B\uD835\uDCBF\u0458\u0454\u03BA\u03F0\u0137\u043A\uD835\uDD28\u0138\u0445\u045C\uD835\uDD5C\uD835\uDCC0\u21DA\u21D0\u291B\u290E\u2266\u2A8B\u2962\u013A\u29B4\u2112\u03BB\u27E8\u2991\u27E8\u2A85«\u2190\u21E4\u291F\u291D\u21A9\u21AB\u2939\u2973\u21A2\u2AAB\u2919\u2AAD\u2AAD\uFE00\u290C\u2772{[\u298B\u298F\u298D\u013E\u013C\u2308{\u043B\u2936\u201C\u201E\u2967\u294B\u21B2\u2264\u2190\u21A2\u21BD\u21BC\u21C7\u2194\u21C6\u21CB\u21AD\u22CB\u22DA\u2264\u2266\u2A7D\u2A7D\u2AA8\u2A7F\u2A81\u2A83\u22DA\uFE00\u2A93\u2A85\u22D6\u22DA\u2A8B\u2276\u2272\u297C\u230A\uD835\uDD29\u2276\u2A91\u21BD\u21BC\u296A\u2584\u0459\u226A\u21C7\u231E\u296B\u25FA\u0140\u23B0\u23B0\u2268\u2A89\u2A89\u2A87\u2A87\u2268\u22E6\u27EC\u21FD\u27E6\u27F5\u27F7\u27FC\u27F6\u21AB\u21AC\u2985\uD835\uDD5D\u2A2D\u2A34\u2217_\u25CA\u25CA\u29EB(\u2993\u21C6\u231F\u21CB\u296D\u200E\u22BF\u2039\uD835\uDCC1\u21B0\u2272\u2A8D\u2A8F[\u2018\u201A\u0142<\u2AA6\u2A79\u22D6\u22CB\u22C9\u2976\u2A7B\u2996\u25C3\u22B4\u25C2\u294A\u2966\u2268\uFE00\u2268\uFE00\u223A¯\u2642\u2720\u2720\u21A6\u21A6\u21A7\u21A4\u21A5\u25AE\u2A29\u043C\u2014\u2221\uD835\uDD2A\u2127µ\u2223*\u2AF0·\u2212\u229F\u2238\u2A2A\u2ADB\u2026\u2213\u22A7\uD835\uDD5E\u2213\uD835\uDCC2\u223E\u03BC\u22B8\u22B8\u22D9\u0338\u226B\u20D2\u226B\u0338\u21CD\u21CE\u22D8\u0338\u226A\u20D2\u226A\u0338\u21CF\u22AF\u22AE\u2207\u0144\u2220\u20D2\u2249\u2A70\u0338\u224B\u0338\u0149\u2249\u266E\u266E\u2115 \u224E\u0338\u224F\u0338\u2A43\u0148\u0146\u2247\u2A6D\u0338\u2A42\u043D\u2013\u2260\u21D7\u2924\u2197\u2197\u2250\u0338\u2262\u2928\u2242\u0338\u2204\u2204\uD835\uDD2B\u2267\u0338\u2271\u2271\u2267\u0338\u2A7E\u0338\u2A7E\u0338\u2275\u226F\u226F\u21CE\u21AE\u2AF2\u220B\u22FC\u22FA\u220B\u045A\u21CD\u2266\u0338\u219A\u2025\u2270\u219A\u21AE\u2270\u2266\u0338\u2A7D\u0338\u2A7D\u0338\u226E\u2274\u226E\u22EA\u22EC\u2224\uD835\uDD5F¬\u2209\u22F9\u0338\u22F5\u0338\u2209\u22F7\u22F6\u220C\u220C\u22FE\u22FD\u2226\u2226\u2AFD\u20E5\u2202\u0338\u2A14\u2280\u22E0\u2AAF\u0338\u2280\u2AAF\u0338\u21CF\u219B\u2933\u0338\u219D\u0338\u219B\u22EB\u22ED\u2281\u22E1\u2AB0\u0338\uD835\uDCC3\u2224\u2226\u2241\u2244\u2244\u2224\u2226\u22E2\u22E3\u2284\u2AC5\u0338\u2288\u2282\u20D2\u2288\u2AC5\u0338\u2281\u2AB0\u0338\u2285\u2AC6\u0338\u2289\u2283\u20D2\u2289\u2AC6\u0338\u2279ñ\u2278\u22EA\u22EC\u22EB\u22ED\u03BD#\u2116\u2007\u22AD\u2904\u224D\u20D2\u22AC\u2265\u20D2>\u20D2\u29DE\u2902\u2264\u20D2<\u20D2\u22B4\u20D2\u2903\u22B5\u20D2\u223C\u20D2\u21D6\u2923\u2196\u2196\u2927\u24C8ó\u229B\u229Aô\u043E\u229D\u0151\u2A38\u2299\u29BC\u0153\u29BF\uD835\uDD2C\u02DBò\u29C1\u29B5\u03A9\u222E\u21BA\u29BE\u29BB\u203E\u29C0\u014D\u03C9\u03BF\u29B6\u2296\uD835\uDD60\u29B7\u29B9\u2295\u2228\u21BB\u2A5D\u2134\u2134ªº\u22B6\u2A56\u2A57\u2A5B\u2134ø\u2298õ\u2297\u2A36ö\u233D\u2225¶\u2225\u2AF3\u2AFD\u2202\u043F%.\u2030\u22A5\u2031\uD835\uDD2D\u03C6\u03D5\u2133\u260E\u03C0\u22D4\u03D6\u210F\u210E\u210F+\u2A23\u229E\u2A22\u2214\u2A25\u2A72±\u2A26\u2A27±\u2A15\uD835\uDD61£\u227A\u2AB3\u2AB7\u227C\u2AAF\u227A\u2AB7\u227C\u2AAF\u2AB9\u2AB5\u22E8\u227E\u2032\u2119\u2AB5\u2AB9\u22E8\u220F\u232E\u2312\u2313\u221D\u221D\u227E\u22B0\uD835\uDCC5\u03C8\u2008\uD835\uDD2E\u2A0C\uD835\uDD62\u2057\uD835\uDCC6\u210D\u2A16?\u225F\"\u21DB\u21D2\u291C\u290F\u2964\u223D\u0331\u0155\u221A\u29B3\u27E9\u2992\u29A5\u27E9»\u2192\u2975\u21E5\u2920\u2933\u291E\u21AA\u21AC\u2945\u2974\u21A3\u219D\u291A\u2236\u211A\u290D\u2773}]\u298C\u298E\u2990\u0159\u0157\u2309}\u0440\u2937\u2969\u201D\u201D\u21B3\u211C\u211B\u211C\u211D\u25AD®\u297D\u230B\uD835\uDD2F\u21C1\u21C0\u296C\u03C1\u03F1\u2192\u21A3\u21C1\u21C0\u21C4\u21CC\u21C9\u219D\u22CC\u02DA\u2253\u21C4\u21CC\u200F\u23B1\u23B1\u2AEE\u27ED\u21FE\u27E7\u2986\uD835\uDD63\u2A2E\u2A35)\u2994\u2A12\u21C9\u203A\uD835\uDCC7\u21B1]\u2019\u2019\u22CC\u22CA\u25B9\u22B5\u25B8\u29CE\u2968\u211E\u015B\u201A\u227B\u2AB4\u2AB8\u0161\u227D\u2AB0\u015F\u015D\u2AB6\u2ABA\u22E9\u2A13\u227F\u0441\u22C5\u22A1\u2A66\u21D8\u2925\u2198\u2198§;\u2929\u2216\u2216\u2736\uD835\uDD30\u2322\u266F\u0449\u0448\u2223\u2225­\u03C3\u03C2\u03C2\u223C\u2A6A\u2243\u2243\u2A9E\u2AA0\u2A9D\u2A9F\u2246\u2A24\u2972\u2190\u2216\u2A33\u29E4\u2223\u2323\u2AAA\u2AAC\u2AAC\uFE00\u044C/\u29C4\u233F\uD835\uDD64\u2660\u2660\u2225\u2293\u2293\uFE00\u2294\u2294\uFE00\u228F\u2291\u228F\u2291\u2290\u2292\u2290\u2292\u25A1\u25A1\u25AA\u25AA\u2192\uD835\uDCC8\u2216\u2323\u22C6\u2606\u2605\u03F5\u03D5¯\u2282\u2AC5\u2ABD\u2286\u2AC3\u2AC1\u2ACB\u228A\u2ABF\u2979\u2282\u2286\u2AC5\u228A\u2ACB\u2AC7\u2AD5\u2AD3\u227B\u2AB8\u227D\u2AB0\u2ABA\u2AB6\u22E9\u227F\u2211\u266A\u2283¹²³\u2AC6\u2ABE\u2AD8\u2287\u2AC4\u27C9\u2AD7\u297B\u2AC2\u2ACC\u228B\u2AC0\u2283\u2287\u2AC6\u228B\u2ACC\u2AC8\u2AD4\u2AD6\u21D9\u2926\u2199\u2199\u292Aß\u2316\u03C4\u23B4\u0165\u0163\u0442\u20DB\u2315\uD835\uDD31\u2234\u2234\u03B8\u03D1\u03D1\u2248\u223C\u2009\u2248\u223Cþ\u02DC×\u22A0\u2A31\u2A30\u222D\u2928\u22A4\u2336\u2AF1\uD835\uDD65\u2ADA\u2929\u2034\u2122\u25B5\u25BF\u25C3\u22B4\u225C\u25B9\u22B5\u25EC\u225C\u2A3A\u2A39\u29CD\u2A3B\u23E2\uD835\uDCC9\u0446\u045B\u0167\u226C\u219E\u21A0\u21D1\u2963ú\u2191\u045E\u016Dû\u0443\u21C5\u0171\u296E\u297E\uD835\uDD32ù\u21BF\u21BE\u2580\u231C\u231C\u230F\u25F8\u016B¨\u0173\uD835\uDD66\u2191\u2195\u21BF\u21BE\u228E\u03C5\u03D2\u03C5\u21C8\u231D\u231D\u230E\u016F\u25F9\uD835\uDCCA\u22F0\u0169\u25B5\u25B4\u21C8ü\u29A7\u21D5\u2AE8\u2AE9\u22A8\u299C\u03F5\u03F0\u2205\u03D5\u03D6\u221D\u2195\u03F1\u03C2\u228A\uFE00\u2ACB\uFE00\u228B\uFE00\u2ACC\uFE00\u03D1\u22B2\u22B3\u0432\u22A2\u2228\u22BB\u225A\u22EE||\uD835\uDD33\u22B2\u2282\u20D2\u2283\u20D2\uD835\uDD67\u221D\u22B3\uD835\uDCCB\u2ACB\uFE00\u228A\uFE00\u2ACC\uFE00\u228B\uFE00\u299A\u0175\u2A5F\u2227\u2259\u2118\uD835\uDD34\uD835\uDD68\u2118\u2240\u2240\uD835\uDCCC\u22C2\u25EF\u22C3\u25BD\uD835\uDD35\u27FA\u27F7\u03BE\u27F8\u27F5\u27FC\u22FB\u2A00\uD835\uDD69\u2A01\u2A02\u27F9\u27F6\uD835\uDCCD\u2A06\u2A04\u25B3\u22C1\u22C0ý\u044F\u0177\u044B¥\uD835\uDD36\u0457\uD835\uDD6A\uD835\uDCCE\u044Eÿ\u017A\u017E\u0437\u017C\u2128\u03B6\uD835\uDD37\u0436\u21DD\uD835\uDD6B\uD835\uDCCF\u200D\u200C"];
; 
const META_BIAS = 0x23;
const HEADER_BIAS = 0x30;
const HEADER_LENGTH = 6;
const CHOICE_BITS_PER_CHAR = 6;
const decode_data_format_BUCKET_HASH_1 = 0x9e_37_79_b1;
const decode_data_format_BUCKET_HASH_2 = 0x85_eb_ca_6b;
const PAIR_TABLE_SIZE = 1024;
const decode_data_format_CHAR_REMAP = (() => {
    const remap = new Uint8Array(128);
    for (let code = 0x30; code <= 0x39; code++)
        remap[code] = code - 0x2f;
    for (let code = 0x41; code <= 0x5a; code++)
        remap[code] = code - 0x36;
    for (let code = 0x61; code <= 0x7a; code++)
        remap[code] = code - 0x3c;
    return remap;
})();
function exactKey(text, nameStart, length) {
    return ((text.charCodeAt(nameStart) << 25) |
        (text.charCodeAt(nameStart + 1) << 18) |
        (text.charCodeAt(nameStart + length - 2) << 11) |
        (decode_data_format_CHAR_REMAP[text.charCodeAt(nameStart + length - 1)] << 5) |
        length);
}
function decode_data_format_pairIndex(c0, c1) {
    return (((c0 * 3) << 3) ^ c1) & (PAIR_TABLE_SIZE - 1);
}
function bucketOne(key, buckets) {
    return ((Math.imul(key, decode_data_format_BUCKET_HASH_1) >>> 16) * buckets) >>> 16;
}
function bucketTwo(key, buckets) {
    return ((Math.imul(key, decode_data_format_BUCKET_HASH_2) >>> 16) * buckets) >>> 16;
}
function initDecodeData(packed) {
    const [data, values] = packed;
    const nameCount = ((data.charCodeAt(0) - HEADER_BIAS) << 6) |
        (data.charCodeAt(1) - HEADER_BIAS);
    const suffixesLength = ((data.charCodeAt(2) - HEADER_BIAS) << 6) |
        (data.charCodeAt(3) - HEADER_BIAS);
    const buckets = ((data.charCodeAt(4) - HEADER_BIAS) << 6) |
        (data.charCodeAt(5) - HEADER_BIAS);
    const metaStart = HEADER_LENGTH + suffixesLength;
    const choicesStart = metaStart + 2 * nameCount;
    const slotCount = 2 * buckets;
    const keys = new Int32Array(slotCount);
    const slotMidOff = new Uint16Array(slotCount);
    const slotValue = new Uint16Array(slotCount);
    const lengthBits = new Uint32Array(PAIR_TABLE_SIZE);
    const middleOffsets = new Map();
    const middles = [];
    let name = "";
    let suffixOffset = HEADER_LENGTH;
    let valueOffset = 0;
    for (let index = 0; index < nameCount; index++) {
        const meta0 = data.charCodeAt(metaStart + 2 * index) - META_BIAS;
        const meta1 = data.charCodeAt(metaStart + 2 * index + 1) - META_BIAS;
        const prefixLength = meta0 & 31;
        const length = prefixLength + (meta1 & 31);
        const valueLength = (meta1 >> 5) + 1;
        name =
            name.slice(0, prefixLength) +
                data.slice(suffixOffset, suffixOffset + length - prefixLength);
        suffixOffset += length - prefixLength;
        const key = exactKey(name, 0, length);
        const choice = (data.charCodeAt(choicesStart + Math.floor(index / CHOICE_BITS_PER_CHAR)) -
            HEADER_BIAS) &
            (1 << (index % CHOICE_BITS_PER_CHAR));
        let slot = 2 * (choice === 0 ? bucketOne : bucketTwo)(key, buckets);
        if (keys[slot] !== 0)
            slot += 1;
        keys[slot] = key;
        if (length > 4) {
            const middle = name.slice(2, length - 2);
            const existing = middleOffsets.get(middle);
            if (existing === undefined) {
                middleOffsets.set(middle, middles.length);
                slotMidOff[slot] = middles.length;
                for (let middleIndex = 0; middleIndex < middle.length; middleIndex += 2) {
                    middles.push(middle.charCodeAt(middleIndex) |
                        (middle.charCodeAt(middleIndex + 1) << 16));
                }
            }
            else {
                slotMidOff[slot] = existing;
            }
        }
        const pair = decode_data_format_pairIndex(name.charCodeAt(0), name.charCodeAt(1));
        lengthBits[pair] |= length <= 16 ? 1 << (length - 2) : 0x80_00;
        if ((meta0 & 0x20) !== 0) {
            lengthBits[pair] |= 1 << (length - 2 + 16);
        }
        slotValue[slot] =
            (valueOffset << 2) | (valueLength - 1) | ((meta0 & 0x20) >> 4);
        valueOffset += valueLength;
    }
    return {
        keys,
        buckets,
        slotMidOff,
        slotValue,
        values,
        lengthBits,
        middles: new Uint32Array(middles),
    };
}
; 



const CHAR_AMP = 38;  
const CHAR_NUM = 35;  
const CHAR_SEMI = 59;  
const CHAR_EQUALS = 61;  
const CHAR_ZERO = 48;  
const CHAR_LOWER_A = 97;  
const CHAR_LOWER_G = 103;  
const CHAR_LOWER_L = 108;  
const CHAR_LOWER_M = 109;  
const CHAR_LOWER_O = 111;  
const CHAR_LOWER_P = 112;  
const CHAR_LOWER_Q = 113;  
const CHAR_LOWER_S = 115;  
const CHAR_LOWER_T = 116;  
const CHAR_LOWER_U = 117;  
const CHAR_LOWER_X = 120;  
const CHAR_UPPER_A = 65;  
const TO_LOWER_BIT = 0b10_0000;
function isNumber(code) {
    return (code - CHAR_ZERO) >>> 0 <= 9;
}
function isAlphaNumeric(code) {
    return (isNumber(code) || ((code | TO_LOWER_BIT) - CHAR_LOWER_A) >>> 0 <= 25  
    );
}
function isEntityInAttributeInvalidEnd(code) {
    return code === CHAR_EQUALS || isAlphaNumeric(code);
}
var DecodingMode;
(function (DecodingMode) {
    DecodingMode[DecodingMode["Legacy"] = 0] = "Legacy";
    DecodingMode[DecodingMode["Strict"] = 1] = "Strict";
    DecodingMode[DecodingMode["Attribute"] = 2] = "Attribute";
})(DecodingMode || (DecodingMode = {}));
const htmlDecode =   initDecodeData(htmlDecodeData);
const htmlKeys =   (() => htmlDecode.keys)();
const htmlBuckets =   (() => htmlDecode.buckets)();
const htmlSlotMidOff =   (() => htmlDecode.slotMidOff)();
const htmlLengthBits =   (() => htmlDecode.lengthBits)();
const htmlMiddles =   (() => htmlDecode.middles)();
const htmlSlotValue =   (() => htmlDecode.slotValue)();
const htmlValues =   (() => htmlDecode.values)();
function emitHtmlValue(packed) {
    const off = packed >> 2;
    return (packed & 1) === 0
        ? htmlValues.charAt(off)
        : htmlValues.slice(off, off + (packed & 1) + 1);
}
function findSlotHtml(text, start, length) {
    const c0 = text.charCodeAt(start);
    const c1 = text.charCodeAt(start + 1);
    const c2 = text.charCodeAt(start + length - 2);
    const c3 = text.charCodeAt(start + length - 1);
    if ((c0 | c1 | c2 | c3) > 127)
        return -1;
    const key = (c0 << 25) | (c1 << 18) | (c2 << 11) | (decode_data_format_CHAR_REMAP[c3] << 5) | length;
    let slot = 2 * (((Math.imul(key, decode_data_format_BUCKET_HASH_1) >>> 16) * htmlBuckets) >>> 16);
    for (let attempt = 0;; attempt++) {
        if (htmlKeys[slot] === key &&
            (length <= 4 || isMidMatchHtml(slot, text, start, length))) {
            return slot;
        }
        if (htmlKeys[slot + 1] === key &&
            (length <= 4 || isMidMatchHtml(slot + 1, text, start, length))) {
            return slot + 1;
        }
        if (attempt === 1)
            return -1;
        slot =
            2 * (((Math.imul(key, decode_data_format_BUCKET_HASH_2) >>> 16) * htmlBuckets) >>> 16);
    }
}
function isMidMatchHtml(slot, text, start, length) {
    let wordIndex = htmlSlotMidOff[slot];
    let index = start + 2;
    const end = start + length - 2;
    while (index + 1 < end) {
        if ((text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16)) !==
            htmlMiddles[wordIndex++])
            return false;
        index += 2;
    }
    return (index === end ||
        text.charCodeAt(index) === (htmlMiddles[wordIndex] & 0xff_ff));
}
const NUMERIC_CONSUMED_SHIFT = 21;
const NUMERIC_CODE_POINT_MASK = 0x1f_ff_ff;
const NUMERIC_CONSUMED_OVERFLOW = 0x7_ff;
let longNumericConsumed = 0;
function unpackConsumed(packed) {
    const consumed = packed >>> NUMERIC_CONSUMED_SHIFT;
    return consumed === NUMERIC_CONSUMED_OVERFLOW
        ? longNumericConsumed
        : consumed;
}
const numericDigits =   (() => {
    const digits = new Uint8Array(128).fill(0xff);
    for (let digit = 0; digit < 10; digit++) {
        digits[CHAR_ZERO + digit] = digit;
    }
    for (let digit = 0; digit < 6; digit++) {
        digits[CHAR_UPPER_A + digit] = digit + 10;
        digits[CHAR_LOWER_A + digit] = digit + 10;
    }
    return digits;
})();
function parseNumericEntity(input, offset, isStrict) {
    const inputLength = input.length;
    let index = offset;
    let codePoint = 0;
    let digitsStart;
    if ((input.charCodeAt(index) | TO_LOWER_BIT) === CHAR_LOWER_X) {
        index += 1;
        digitsStart = index;
        while (index < inputLength) {
            const char = input.charCodeAt(index);
            if (char >= 128)
                break;
            const digit = numericDigits[char];
            if (digit <= 15) {
                codePoint = codePoint * 16 + digit;
                index++;
            }
            else {
                break;
            }
        }
    }
    else {
        digitsStart = index;
        while (index < inputLength) {
            const char = input.charCodeAt(index);
            if (char >= 128)
                break;
            const digit = numericDigits[char];
            if (digit <= 9) {
                codePoint = codePoint * 10 + digit;
                index++;
            }
            else {
                break;
            }
        }
    }
    if (index === digitsStart)
        return 0;
    if (codePoint > 0x10_ff_ff)
        codePoint = 0x11_00_00;
    let consumed = index - offset + 2;  
    if (index < inputLength && input.charCodeAt(index) === CHAR_SEMI) {
        consumed += 1;
    }
    else if (isStrict) {
        return 0;
    }
    if (consumed >= NUMERIC_CONSUMED_OVERFLOW) {
        longNumericConsumed = consumed;
        consumed = NUMERIC_CONSUMED_OVERFLOW;
    }
    return (consumed << NUMERIC_CONSUMED_SHIFT) | codePoint;
}
function findLegacySlot(input, start, maxLength) {
    let legacy = (htmlLengthBits[decode_data_format_pairIndex(input.charCodeAt(start), input.charCodeAt(start + 1))] >>>
        16) &
        31;
    while (legacy !== 0) {
        const top = 31 - Math.clz32(legacy);
        legacy ^= 1 << top;
        if (top + 2 > maxLength)
            continue;
        const slot = findSlotHtml(input, start, top + 2);
        if (slot >= 0 && (htmlSlotValue[slot] & 2) !== 0) {
            return (slot << 3) | (top + 2);
        }
    }
    return -1;
}
function findLongClassMatch(input, start, mode) {
    const length = input.slice(start, start + 32).indexOf(";");
    if ((length - 2) >>> 0 <= 29) {
        const slot = findSlotHtml(input, start, length);
        if (slot >= 0)
            return (slot << 6) | (length + 1);
    }
    if (mode !== DecodingMode.Strict) {
        const packed = findLegacySlot(input, start, Math.min(31, input.length - start));
        if (packed >= 0) {
            const length = packed & 7;
            if (mode !== DecodingMode.Attribute ||
                start + length >= input.length ||
                !isEntityInAttributeInvalidEnd(input.charCodeAt(start + length)))
                return ((packed >> 3) << 6) | length;
        }
    }
    return -1;
}
function matchXmlEntity(input, start) {
    switch (input.charCodeAt(start)) {
        case CHAR_LOWER_L: {
            return input.charCodeAt(start + 1) === CHAR_LOWER_T &&
                input.charCodeAt(start + 2) === CHAR_SEMI
                ? (3 << 7) | 0x3c
                : -1;
        }
        case CHAR_LOWER_G: {
            return input.charCodeAt(start + 1) === CHAR_LOWER_T &&
                input.charCodeAt(start + 2) === CHAR_SEMI
                ? (3 << 7) | 0x3e
                : -1;
        }
        case CHAR_LOWER_A: {
            const c1 = input.charCodeAt(start + 1);
            const c2 = input.charCodeAt(start + 2);
            if (c1 === CHAR_LOWER_M &&
                c2 === CHAR_LOWER_P &&
                input.charCodeAt(start + 3) === CHAR_SEMI) {
                return (4 << 7) | 0x26;
            }
            return c1 === CHAR_LOWER_P &&
                c2 === CHAR_LOWER_O &&
                input.charCodeAt(start + 3) === CHAR_LOWER_S &&
                input.charCodeAt(start + 4) === CHAR_SEMI
                ? (5 << 7) | 0x27
                : -1;
        }
        case CHAR_LOWER_Q: {
            return input.charCodeAt(start + 1) === CHAR_LOWER_U &&
                input.charCodeAt(start + 2) === CHAR_LOWER_O &&
                input.charCodeAt(start + 3) === CHAR_LOWER_T &&
                input.charCodeAt(start + 4) === CHAR_SEMI
                ? (5 << 7) | 0x22
                : -1;
        }
        default: {
            return -1;
        }
    }
}
function nextOffset(input, last) {
    if (last >= input.length)
        return -1;
    return input.charCodeAt(last) === CHAR_AMP
        ? last
        : input.indexOf("&", last);
}
function decodeHtmlText(input, mode) {
    const isLegacyAllowed = mode !== DecodingMode.Strict;
    let offset = input.indexOf("&");
    if (offset < 0)
        return input;
    const inputLength = input.length;
    let result = "";
    let last = 0;
    do {
        const start = offset + 1;
        if (start + 1 >= inputLength)
            break;
        const c0 = input.charCodeAt(start);
        if (c0 === CHAR_AMP) {
            offset = start;
            continue;
        }
        if (c0 === CHAR_NUM) {
            const packed = parseNumericEntity(input, start + 1, !isLegacyAllowed);
            const consumed = unpackConsumed(packed);
            if (consumed === 0) {
                offset = input.indexOf("&", start);
            }
            else {
                if (last !== offset) {
                    result += input.slice(last, offset);
                }
                result += codePointToString(packed & NUMERIC_CODE_POINT_MASK);
                last = offset + consumed;
                offset = nextOffset(input, last);
            }
            continue;
        }
        const bits = htmlLengthBits[decode_data_format_pairIndex(c0, input.charCodeAt(start + 1))];
        if ((bits & 0x80_00) !== 0) {
            const packed = findLongClassMatch(input, start, mode);
            if (packed >= 0) {
                if (last !== offset)
                    result += input.slice(last, offset);
                result += emitHtmlValue(htmlSlotValue[packed >> 6]);
                last = start + (packed & 63);
                offset = nextOffset(input, last);
            }
            else {
                offset = input.indexOf("&", start);
            }
            continue;
        }
        let probed = bits & 0x7f_ff;
        let matched = -1;
        while (probed !== 0) {
            const low = probed & -probed;
            probed ^= low;
            const length = 33 - Math.clz32(low);
            const end = start + length;
            if (end > inputLength)
                break;
            const isTerminated = end < inputLength && input.charCodeAt(end) === CHAR_SEMI;
            if (!(isTerminated ||
                (isLegacyAllowed && ((bits >>> (length + 14)) & 1) !== 0)))
                continue;
            const slot = findSlotHtml(input, start, length);
            if (slot < 0)
                continue;
            if (isTerminated) {
                matched = (slot << 6) | 32 | (length + 1);
                break;
            }
            if ((htmlSlotValue[slot] & 2) !== 0) {
                matched = (slot << 6) | length;
            }
        }
        if (matched >= 0) {
            const length = matched & 31;
            if ((matched & 32) !== 0 ||
                mode !== DecodingMode.Attribute ||
                start + length >= inputLength ||
                !isEntityInAttributeInvalidEnd(input.charCodeAt(start + length))) {
                if (last !== offset)
                    result += input.slice(last, offset);
                result += emitHtmlValue(htmlSlotValue[matched >> 6]);
                last = start + length;
                offset = nextOffset(input, last);
                continue;
            }
        }
        offset = input.indexOf("&", start + 1);
    } while (offset >= 0);
    return result + input.slice(last);
}
function decodeHTML(htmlString, mode = DecodingMode.Legacy) {
    return decodeHtmlText(htmlString, mode);
}
function decodeHTMLAttribute(htmlAttribute) {
    return decodeHtmlText(htmlAttribute, DecodingMode.Attribute);
}
function decodeHTMLStrict(htmlString) {
    return decodeHtmlText(htmlString, DecodingMode.Strict);
}
function decodeXML(xmlString) {
    let offset = xmlString.indexOf("&");
    if (offset < 0)
        return xmlString;
    let lastIndex = 0;
    let result = "";
    do {
        const start = offset + 1;
        if (start + 1 >= xmlString.length)
            break;
        let consumed = 0;
        let value = "";
        const c1 = xmlString.charCodeAt(start);
        if (c1 === CHAR_NUM) {
            const packed = parseNumericEntity(xmlString, start + 1, true);
            consumed = unpackConsumed(packed);
            if (consumed !== 0) {
                const codePoint = packed & NUMERIC_CODE_POINT_MASK;
                value =
                    (codePoint - 1) >>> 0 < 0xd7_ff
                        ? String.fromCharCode(codePoint)
                        : String.fromCodePoint(replaceCodePointXML(codePoint));
            }
        }
        else {
            switch (c1) {
                case 0x6c:
                case 0x67: {
                    if (start + 2 < xmlString.length &&
                        xmlString.charCodeAt(start + 1) === 0x74 &&
                        xmlString.charCodeAt(start + 2) === CHAR_SEMI) {
                        consumed = 4;
                        value = c1 === 0x6c ? "<" : ">";
                    }
                    break;
                }
                case 0x61: {
                    const c2 = xmlString.charCodeAt(start + 1);
                    if (start + 3 < xmlString.length &&
                        c2 === 0x6d &&
                        xmlString.charCodeAt(start + 2) === 0x70 &&
                        xmlString.charCodeAt(start + 3) === CHAR_SEMI) {
                        consumed = 5;
                        value = "&";
                    }
                    else if (start + 4 < xmlString.length &&
                        c2 === 0x70 &&
                        xmlString.charCodeAt(start + 2) === 0x6f &&
                        xmlString.charCodeAt(start + 3) === 0x73 &&
                        xmlString.charCodeAt(start + 4) === CHAR_SEMI) {
                        consumed = 6;
                        value = "'";
                    }
                    break;
                }
                case 0x71: {
                    if (start + 4 < xmlString.length &&
                        xmlString.charCodeAt(start + 1) === 0x75 &&
                        xmlString.charCodeAt(start + 2) === 0x6f &&
                        xmlString.charCodeAt(start + 3) === 0x74 &&
                        xmlString.charCodeAt(start + 4) === CHAR_SEMI) {
                        consumed = 6;
                        value = '"';
                    }
                    break;
                }
            }
        }
        if (consumed > 0) {
            if (lastIndex < offset)
                result += xmlString.slice(lastIndex, offset);
            result += value;
            offset = lastIndex = offset + consumed;
        }
        else {
            offset = start;
        }
        offset =
            offset < xmlString.length &&
                xmlString.charCodeAt(offset) === CHAR_AMP
                ? offset
                : xmlString.indexOf("&", offset);
    } while (offset >= 0);
    return result + xmlString.slice(lastIndex);
}
const STATE_ENTITY_START = 0;
const STATE_NUMERIC_START = 1;
const STATE_NUMERIC_DECIMAL = 2;
const STATE_NUMERIC_HEX = 3;
const STATE_NAMED_ENTITY = 4;
class EntityDecoderBase {
    emitCodePoint;
    errors;
    state = STATE_ENTITY_START;
    consumed = 1;
    result = 0;
    decodeMode = DecodingMode.Strict;
    replaceNumericCodePoint = replaceCodePoint;
    constructor(
    emitCodePoint, 
    errors) {
        this.emitCodePoint = emitCodePoint;
        this.errors = errors;
    }
    stateNumericStart(input, offset) {
        if (offset >= input.length) {
            return -1;
        }
        if ((input.charCodeAt(offset) | TO_LOWER_BIT) === CHAR_LOWER_X) {
            this.state = STATE_NUMERIC_HEX;
            this.consumed += 1;
            return this.stateNumericHex(input, offset + 1);
        }
        this.state = STATE_NUMERIC_DECIMAL;
        return this.stateNumericDecimal(input, offset);
    }
    stateNumericHex(input, offset) {
        const inputLength = input.length;
        let { result, consumed } = this;
        let index = offset;
        while (index < inputLength) {
            const char = input.charCodeAt(index);
            const digit = numericDigits[char];
            if (digit <= 15) {
                result = result * 16 + digit;
            }
            else {
                this.result = result;
                this.consumed = consumed;
                return this.emitNumericEntity(char, 3);
            }
            consumed += 1;
            index += 1;
        }
        this.result = result;
        this.consumed = consumed;
        return -1;  
    }
    stateNumericDecimal(input, offset) {
        const inputLength = input.length;
        let { result, consumed } = this;
        let index = offset;
        while (index < inputLength) {
            const digit = input.charCodeAt(index) - CHAR_ZERO;
            if (digit >>> 0 > 9) {
                this.result = result;
                this.consumed = consumed;
                return this.emitNumericEntity(digit + CHAR_ZERO, 2);
            }
            result = result * 10 + digit;
            consumed += 1;
            index += 1;
        }
        this.result = result;
        this.consumed = consumed;
        return -1;  
    }
    emitNumericEntity(lastCp, expectedLength) {
        if (this.consumed <= expectedLength) {
            this.errors?.absenceOfDigitsInNumericCharacterReference(this.consumed);
            return 0;
        }
        if (lastCp === CHAR_SEMI) {
            this.consumed += 1;
        }
        else if (this.decodeMode === DecodingMode.Strict) {
            return 0;
        }
        this.emitCodePoint(this.replaceNumericCodePoint(this.result), this.consumed);
        if (this.errors) {
            if (lastCp !== CHAR_SEMI) {
                this.errors.missingSemicolonAfterCharacterReference();
            }
            this.errors.validateNumericCharacterReference(this.result);
        }
        return this.consumed;
    }
    startEntity(decodeMode) {
        this.decodeMode = decodeMode;
        this.state = STATE_ENTITY_START;
        this.result = 0;
        this.consumed = 1;
    }
    write(input, offset) {
        switch (this.state) {
            case STATE_ENTITY_START: {
                if (input.charCodeAt(offset) === CHAR_NUM) {
                    this.state = STATE_NUMERIC_START;
                    this.consumed += 1;
                    return this.stateNumericStart(input, offset + 1);
                }
                this.state = STATE_NAMED_ENTITY;
                return this.stateNamedEntity(input, offset);
            }
            case STATE_NUMERIC_START: {
                return this.stateNumericStart(input, offset);
            }
            case STATE_NUMERIC_DECIMAL: {
                return this.stateNumericDecimal(input, offset);
            }
            case STATE_NUMERIC_HEX: {
                return this.stateNumericHex(input, offset);
            }
            default: {
                return this.stateNamedEntity(input, offset);
            }
        }
    }
    end() {
        switch (this.state) {
            case STATE_NAMED_ENTITY: {
                return this.endNamedEntity();
            }
            case STATE_NUMERIC_DECIMAL: {
                return this.emitNumericEntity(0, 2);
            }
            case STATE_NUMERIC_HEX: {
                return this.emitNumericEntity(0, 3);
            }
            case STATE_NUMERIC_START: {
                this.errors?.absenceOfDigitsInNumericCharacterReference(this.consumed);
                return 0;
            }
            default: {
                return 0;
            }
        }
    }
}
class HtmlEntityDecoder extends (  null && (EntityDecoderBase)) {
    runLength = 0;
    nameBuffer = new Uint8Array(32);
    emitSlot(slot) {
        const packed = htmlSlotValue[slot];
        const off = packed >> 2;
        this.emitCodePoint(htmlValues.charCodeAt(off), this.consumed);
        if ((packed & 1) !== 0) {
            this.emitCodePoint(htmlValues.charCodeAt(off + 1), this.consumed);
        }
    }
    startEntity(decodeMode) {
        super.startEntity(decodeMode);
        this.runLength = 0;
    }
    stateNamedEntity(input, offset) {
        const inputLength = input.length;
        if (this.runLength === 0 && offset + 17 <= inputLength) {
            const c0 = input.charCodeAt(offset);
            const pair = pairIndex(c0, input.charCodeAt(offset + 1));
            const bits = htmlLengthBits[pair];
            if ((bits & 0x80_00) !== 0 && offset + 32 <= inputLength) {
                const packed = findLongClassMatch(input, offset, this.decodeMode);
                if (packed >= 0) {
                    const length = packed & 63;
                    this.consumed = length + 1;
                    this.emitSlot(packed >> 6);
                    if (input.charCodeAt(offset + length - 1) !== CHAR_SEMI) {
                        this.errors?.missingSemicolonAfterCharacterReference();
                    }
                    return this.consumed;
                }
                return 0;
            }
            let probed = bits & 0x7f_ff;
            while (probed !== 0) {
                const low = probed & -probed;
                probed ^= low;
                const length = 33 - Math.clz32(low);
                if (input.charCodeAt(offset + length) === CHAR_SEMI) {
                    const slot = findSlotHtml(input, offset, length);
                    if (slot >= 0) {
                        this.consumed = length + 2;
                        this.emitSlot(slot);
                        return this.consumed;
                    }
                }
            }
            if ((bits & 0x80_00) === 0) {
                if (this.decodeMode !== DecodingMode.Strict) {
                    const packed = findLegacySlot(input, offset, 31);
                    if (packed >= 0) {
                        const matchLength = packed & 7;
                        const next = input.charCodeAt(offset + matchLength);
                        if (this.decodeMode === DecodingMode.Attribute &&
                            isEntityInAttributeInvalidEnd(next)) {
                            return 0;
                        }
                        this.consumed = matchLength + 1;
                        this.emitSlot(packed >> 3);
                        this.errors?.missingSemicolonAfterCharacterReference();
                        return this.consumed;
                    }
                }
                return 0;
            }
        }
        let index = offset;
        let { runLength } = this;
        let terminator = -1;
        const scanEnd = Math.min(inputLength, offset + 32 - runLength);
        while (index < scanEnd) {
            const char = input.charCodeAt(index);
            if (!isAlphaNumeric(char)) {
                terminator = char;
                break;
            }
            this.nameBuffer[runLength++] = char;
            index++;
        }
        if (terminator < 0 && runLength < 32) {
            this.runLength = runLength;
            return -1;
        }
        if (terminator === CHAR_SEMI && (runLength - 2) >>> 0 <= 29) {
            const slot = findBufferedHtmlSlot(this.nameBuffer, runLength);
            if (slot >= 0) {
                this.consumed = runLength + 2;
                this.emitSlot(slot);
                return this.consumed;
            }
        }
        if (this.decodeMode !== DecodingMode.Strict && runLength >= 2) {
            const packed = findBufferedLegacySlot(this.nameBuffer, runLength);
            if (packed >= 0) {
                const length = packed & 7;
                const next = length < runLength ? this.nameBuffer[length] : terminator;
                if (this.decodeMode === DecodingMode.Attribute &&
                    isEntityInAttributeInvalidEnd(next))
                    return 0;
                this.consumed = length + 1;
                this.emitSlot(packed >> 3);
                this.errors?.missingSemicolonAfterCharacterReference();
                return this.consumed;
            }
        }
        return 0;
    }
    endNamedEntity() {
        if (this.decodeMode === DecodingMode.Strict || this.runLength < 2) {
            return 0;
        }
        const packed = findBufferedLegacySlot(this.nameBuffer, this.runLength);
        if (packed < 0)
            return 0;
        if (this.decodeMode === DecodingMode.Attribute &&
            (packed & 7) < this.runLength) {
            return 0;
        }
        this.consumed = (packed & 7) + 1;
        this.emitSlot(packed >> 3);
        this.errors?.missingSemicolonAfterCharacterReference();
        return this.consumed;
    }
}
function findBufferedHtmlSlot(buffer, length) {
    const key = (buffer[0] << 25) |
        (buffer[1] << 18) |
        (buffer[length - 2] << 11) |
        (CHAR_REMAP[buffer[length - 1]] << 5) |
        length;
    let slot = 2 * (((Math.imul(key, BUCKET_HASH_1) >>> 16) * htmlBuckets) >>> 16);
    for (let attempt = 0;; attempt++) {
        if (htmlKeys[slot] === key &&
            (length <= 4 || isBufferedMiddle(slot, buffer, length)))
            return slot;
        if (htmlKeys[slot + 1] === key &&
            (length <= 4 || isBufferedMiddle(slot + 1, buffer, length)))
            return slot + 1;
        if (attempt === 1)
            return -1;
        slot =
            2 * (((Math.imul(key, BUCKET_HASH_2) >>> 16) * htmlBuckets) >>> 16);
    }
}
function isBufferedMiddle(slot, buffer, length) {
    let wordIndex = htmlSlotMidOff[slot];
    let index = 2;
    const end = length - 2;
    while (index + 1 < end) {
        if ((buffer[index] | (buffer[index + 1] << 16)) !==
            htmlMiddles[wordIndex++])
            return false;
        index += 2;
    }
    return (index === end || buffer[index] === (htmlMiddles[wordIndex] & 0xff_ff));
}
function findBufferedLegacySlot(buffer, length) {
    let legacy = (htmlLengthBits[pairIndex(buffer[0], buffer[1])] >>> 16) & 31;
    while (legacy !== 0) {
        const top = 31 - Math.clz32(legacy);
        legacy ^= 1 << top;
        if (top + 2 > length)
            continue;
        const slot = findBufferedHtmlSlot(buffer, top + 2);
        if (slot >= 0 && (htmlSlotValue[slot] & 2) !== 0)
            return (slot << 3) | (top + 2);
    }
    return -1;
}
function xmlCodePoint(name) {
    switch (name) {
        case 0x18_76_f0: {
            return 0x26;
        }
        case 0xc_3c_37_f3: {
            return 0x27;
        }
        case 0x33_f4: {
            return 0x3e;
        }
        case 0x36_74: {
            return 0x3c;
        }
        case 0xe_3d_77_f4: {
            return 0x22;
        }
        default: {
            return -1;
        }
    }
}
class XmlEntityDecoder extends (  null && (EntityDecoderBase)) {
    replaceNumericCodePoint = replaceCodePointXML;
    stateNamedEntity(input, offset) {
        const inputLength = input.length;
        if (this.consumed === 1 && offset + 5 <= inputLength) {
            const packed = matchXmlEntity(input, offset);
            if (packed < 0)
                return 0;
            const consumed = (this.consumed = (packed >> 7) + 1);
            this.emitCodePoint(packed & 127, consumed);
            return consumed;
        }
        let { result, consumed } = this;
        for (let index = offset; index < inputLength; index++) {
            const char = input.charCodeAt(index);
            if (char === CHAR_SEMI) {
                const codePoint = xmlCodePoint(result);
                if (codePoint < 0)
                    return 0;
                this.consumed = consumed + 1;
                this.emitCodePoint(codePoint, this.consumed);
                return this.consumed;
            }
            if (consumed >= 5 || (char - CHAR_LOWER_A) >>> 0 > 25)
                return 0;
            result = (result << 7) | char;
            consumed++;
        }
        this.result = result;
        this.consumed = consumed;
        return -1;
    }
    endNamedEntity() {
        return 0;
    }
}


  })

  	});
  	 
  	var __webpack_module_cache__ = {};
  	 
  	function __nccwpck_require__(moduleId) {
  		 
  		var cachedModule = __webpack_module_cache__[moduleId];
  		if (cachedModule !== undefined) {
  			return cachedModule.exports;
  		}
  		 
  		var module = __webpack_module_cache__[moduleId] = {
  			id: moduleId,
  			loaded: false,
  			exports: {}
  		};
  		 
  		var threw = true;
  		try {
  			__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
  			threw = false;
  		} finally {
  			if(threw) delete __webpack_module_cache__[moduleId];
  		}
  		 
  		module.loaded = true;
  		 
  		return module.exports;
  	}
  	 
  	__nccwpck_require__.m = __webpack_modules__;
  	 
  	if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = __dirname + "/";
  	 
  	(() => {
  		 
  		__nccwpck_require__.n = (module) => {
  			var getter = module && module.__esModule ?
  				() => (module['default']) :
  				() => (module);
  			__nccwpck_require__.d(getter, { a: getter });
  			return getter;
  		};
  	})();
  	 
  	(() => {
  		var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
  		var leafPrototypes;
  		 
  		 
  		 
  		 
  		 
  		 
  		__nccwpck_require__.t = function(value, mode) {
  			if(mode & 1) value = this(value);
  			if(mode & 8) return value;
  			if(typeof value === 'object' && value) {
  				if((mode & 4) && value.__esModule) return value;
  				if((mode & 16) && typeof value.then === 'function') return value;
  			}
  			var ns = Object.create(null);
  			__nccwpck_require__.r(ns);
  			var def = {};
  			leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
  			for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
  				Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
  			}
  			def['default'] = () => (value);
  			__nccwpck_require__.d(ns, def);
  			return ns;
  		};
  	})();
  	 
  	(() => {
  		 
  		__nccwpck_require__.d = (exports, definition) => {
  			for(var key in definition) {
  				if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
  					Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
  				}
  			}
  		};
  	})();
  	 
  	(() => {
  		__nccwpck_require__.f = {};
  		 
  		 
  		__nccwpck_require__.e = (chunkId) => {
  			return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
  				__nccwpck_require__.f[key](chunkId, promises);
  				return promises;
  			}, []));
  		};
  	})();
  	 
  	(() => {
  		 
  		__nccwpck_require__.u = (chunkId) => {
  			 
  			return "" + chunkId + ".index.js";
  		};
  	})();
  	 
  	(() => {
  		__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
  	})();
  	 
  	(() => {
  		 
  		__nccwpck_require__.r = (exports) => {
  			if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
  				Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
  			}
  			Object.defineProperty(exports, '__esModule', { value: true });
  		};
  	})();
  	 
  	(() => {
  		__nccwpck_require__.nmd = (module) => {
  			module.paths = [];
  			if (!module.children) module.children = [];
  			return module;
  		};
  	})();
  	 
  	(() => {
  		 
  		 
  		 
  		var installedChunks = {
  			792: 1
  		};
  		 
  		var installChunk = (chunk) => {
  			var moreModules = chunk.modules, chunkIds = chunk.ids, runtime = chunk.runtime;
  			for(var moduleId in moreModules) {
  				if(__nccwpck_require__.o(moreModules, moduleId)) {
  					__nccwpck_require__.m[moduleId] = moreModules[moduleId];
  				}
  			}
  			if(runtime) runtime(__nccwpck_require__);
  			for(var i = 0; i < chunkIds.length; i++)
  				installedChunks[chunkIds[i]] = 1;
  		};
  		 
  		__nccwpck_require__.f.require = (chunkId, promises) => {
  			 
  			if(!installedChunks[chunkId]) {
  				if(true) {  
  					installChunk(require("./" + __nccwpck_require__.u(chunkId)));
  				} else installedChunks[chunkId] = 1;
  			}
  		};
  		 
  		 
  		 
  	})();
var __webpack_exports__ = {};
__nccwpck_require__.r(__webpack_exports__);

__nccwpck_require__.d(__webpack_exports__, {
  main: () => (  main),
  post: () => (  post)
});

var constants = __nccwpck_require__(2851);
; 

const FieldSettings = {
    version: constants .wB.Version,
    environment: constants .wB.Environment,
    commitSha: constants .wB.CommitSha,
    user: constants .wB.User,
    branch: constants .wB.Branch,
    changelog: constants .wB.Changelog,
    description: constants .wB.Description,
    link: constants .wB.Link,
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
        environment: pick('environment') ?? { value: constants .t1, source: "the service's default environment" },
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
        type: constants .C1,
        ...optional,
        status,
    };
}
function artifactLabel(artifact) {
    return 'artifactId' in artifact ? `artifact ${artifact.artifactId}` : `artifact '${artifact.artifactName}'`;
}

; 
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
function jsonText(value, limit) {
    let text = '';
    const todo = [{ value }];
    while (todo.length > 0 && text.length < limit) {
        const next = todo.pop();
        if (typeof next === 'string') {
            text += next;
            continue;
        }
        const current = next.value;
        if (current instanceof JsonNumber)
            text += current.source;
        else if (typeof current === 'string')
            text += JSON.stringify(current);
        else if (typeof current === 'number')
            text += Number.isFinite(current) ? String(current) : 'null';
        else if (typeof current === 'boolean')
            text += String(current);
        else if (Array.isArray(current)) {
            text += '[';
            todo.push(']');
            for (let index = current.length - 1; index >= 0; index--) {
                todo.push({ value: current[index] });
                if (index > 0)
                    todo.push(',');
            }
        }
        else if (isObject(current)) {
            const entries = Object.entries(current);
            text += '{';
            todo.push('}');
            for (let index = entries.length - 1; index >= 0; index--) {
                const [key, member] = entries[index];
                todo.push({ value: member }, `${JSON.stringify(key)}:`);
                if (index > 0)
                    todo.push(',');
            }
        }
        else
            text += 'null';
    }
    return text;
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function field(value, name) {
    return isObject(value) ? value[name] : undefined;
}

var core_text = __nccwpck_require__(9439);
; 




const TAG_PREFIX = 'refs/tags/';
const BRANCH_PREFIX = 'refs/heads/';
function githubDefaults(ctx) {
    const facts = eventFacts(ctx.payload);
    const deployment = DEPLOYMENT_EVENTS.has(ctx.eventName) ? deploymentFacts(ctx.payload) : undefined;
    const values = {
        commitSha: defaultCommitSha(ctx, facts),
        version: sourced(refTag(ctx.env.GITHUB_REF), 'the tag (GITHUB_REF)'),
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
    return `is empty and ${MISSING_FROM[name]} gives no default (not on a GitHub runner?). Set \`${FieldSettings[name]}\`.`;
}
const MISSING_FROM_DEPLOYMENT = {
    commitSha: 'deployment.sha',
    user: 'deployment.creator',
    branch: 'deployment.ref',
};
function missingFromDeployment(name) {
    return `is empty, and neither the event's ${MISSING_FROM_DEPLOYMENT[name]} nor ${MISSING_FROM[name]} gives a default. Set \`${FieldSettings[name]}\`.`;
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
    return ref?.startsWith(TAG_PREFIX) ? ref.slice(TAG_PREFIX.length) : '';
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
    return undefined;
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
        return undefined;
    const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const run = `${server}/${repo}/actions/runs/${runId}`;
    if (checkRunId?.match(/^\d+$/))
        return sourced(`${run}/job/${checkRunId}`, "the job's page");
    return sourced(`${run}/attempts/${env.GITHUB_RUN_ATTEMPT || '1'}`, "the run attempt's page");
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
            nothing: `Nothing recorded: a \`deployment\` event comes when a deployment is created, before it has a state. Run this workflow on \`deployment_status\` to record each deployment once it has succeeded or failed, or set ${naming.assignment(constants .wB.Status)} to record it here.`,
        };
    }
    return undefined;
}
function deploymentFacts(payload) {
    const deployment = field(payload, 'deployment');
    if (!isObject(deployment))
        return undefined;
    const status = field(payload, 'deployment_status');
    const appName = (of) => word(field(field(of, 'performed_via_github_app'), 'name'));
    return {
        sha: word(deployment.sha),
        ref: word(deployment.ref),
        environment: word(deployment.environment),
        description: word(deployment.description),
        task: word(deployment.task),
        id: Number.isSafeInteger(deployment.id) ? String(deployment.id) : '',
        creator: word(field(deployment.creator, 'login')),
        app: appName(status) || appName(deployment),
        payloadVersion: payloadVersion(deployment.payload),
        state: word(field(status, 'state')),
        statusEnvironment: word(field(status, 'environment')),
        statusDescription: word(field(status, 'description')),
        statusUrls: ['log_url', 'target_url', 'environment_url'].map((name) => word(field(status, name))),
    };
}
function word(value) {
    const said = github_text(value);
    return (0,core_text .z3)(said) ? '' : said;
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
    return word(field(value, 'version'));
}
function deployedRef(ref, sha, githubRef) {
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
        if (!(0,core_text .z3)(value))
            values[name] = sourced(value, source);
    };
    set('commitSha', facts.sha, 'deployment.sha (event)');
    const ref = deployedRef(facts.ref, facts.sha, env.GITHUB_REF);
    if ('branch' in ref)
        set('branch', ref.branch, 'deployment.ref (event)');
    if ('tag' in ref)
        set('branch', ref.tag, 'the tag (deployment.ref, event)');
    if ('commit' in ref)
        set('branch', facts.sha || ref.commit, 'deployment.ref (event: a commit, no branch)');
    values.version = undefined;
    if ('tag' in ref)
        set('version', ref.tag, 'the tag (deployment.ref, event)');
    set('version', facts.payloadVersion, "the deployment's payload (event)");
    set('environment', facts.environment, 'deployment.environment (event)');
    set('environment', facts.statusEnvironment, 'deployment_status.environment (event)');
    set('user', facts.creator, 'deployment.creator (event)');
    const link = facts.statusUrls.find((url) => url !== '');
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
    return [facts.description, state, origin.join(' ')].filter((part) => part !== '').join('; ');
}

; 
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
    error() {
        return this.problems.length ? new ConfigError(this.problems) : undefined;
    }
    throwIfAny() {
        const error = this.error();
        if (error)
            throw error;
    }
}

; 



const NOTHING_SENT = 'Dry run: nothing was sent.';
function nothingSent(words) {
    return words.dryRunGoesOn ? `Dry run: nothing was sent; ${words.dryRunGoesOn}.` : NOTHING_SENT;
}
const NOT_SENT = 'not sent: the run was cancelled before its turn';
function describeCancel(plan, words) {
    const head = 'The run is being cancelled:';
    switch (plan.kind) {
        case 'create': {
            const later = plan.finishLater ? `, and ${words.finisher} sets each one created from ${words.finishFrom}` : '';
            return `${head} no further deployment is created; those already sent are waited for${later}.`;
        }
        case 'update':
            return `${head} every deployment is still set to ${plan.status}, so that none is left unfinished.`;
        default:
            return `${head} ${words.starter} sends nothing, and ends as it would.`;
    }
}
function describeStart(plan, results, options) {
    const { dryRun, startedAt, words } = options;
    const note = (text) => ({ note: `Nothing to finish: ${text}` });
    switch (plan.kind) {
        case 'nothing':
            return describeNothing(plan, words);
        case 'finish-later': {
            const { ids } = plan;
            if (dryRun) {
                const line = `Dry run: ${words.finisher} would set ${deploymentsText(ids)} from ${words.finishFrom}.`;
                return report({ lines: info(line, nothingSent(words)), open: { dryRun, ids, count: ids.length } });
            }
            const line = `${(0,core_text .ZH)(deploymentsText(ids))} will be set from ${words.finishFrom} ${words.finishWhen}.`;
            return report({ lines: info(line), ids, open: { dryRun, ids, startedAt } });
        }
        case 'update': {
            const { status } = plan;
            const { done, failures } = splitUpdates(results.updated ?? [], status);
            if (dryRun) {
                return report({
                    lines: info(nothingSent(words)),
                    status,
                    open: note(`${words.starter} already set the deployment status to ${status}.`),
                });
            }
            const line = done.length ? `${(0,core_text .ZH)(deploymentsText(done))} set to ${status}.` : '';
            return report({
                lines: info(line),
                failures,
                summary: { heading: countHeading(done.length, plan.ids.length, 'updated'), lines: line ? [line] : [] },
                ids: done,
                status: done.length ? status : '',
                open: note(done.length
                    ? `${words.starter} already set the deployment status to ${status}.`
                    : `${words.starter} could not update the deployment.`),
            });
        }
        case 'create':
            return describeCreated(plan, results.created ?? [], options);
    }
}
function describeCreated(plan, results, { dryRun, startedAt, words }) {
    const { status, finishLater } = plan;
    const given = `${words.starter} was given status ${status}, so ${words.finishFrom} is not reported.`;
    if (dryRun) {
        const later = `Dry run: ${words.finisher} would set these deployments from ${words.finishFrom}.`;
        return report({
            lines: info(finishLater ? later : '', nothingSent(words)),
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
            const failure = 'notSent' in result ? [NOT_SENT] : result.failure;
            failures.push(prefixed(`Could not record the deployment of ${artifactLabel(result.body)}`, failure));
        }
    }
    const ids = recorded.map((row) => row.id);
    const open = ids.length === 0
        ? { note: `Nothing to finish: ${words.starter} could not record a deployment.` }
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
function describeNothing(plan, words) {
    const said = (text, warning, heading, note) => report({
        lines: [{ text, warning }],
        summary: { heading, lines: [text] },
        open: { note: `Nothing to finish: ${note}` },
    });
    switch (plan.reason) {
        case 'skipped':
            return said(`Nothing recorded: status is '${plan.word}', so nothing was deployed.`, false, 'Deployment not recorded: skipped', `status was '${plan.word}', so nothing was recorded.`);
        case 'not-final':
            return said(`Nothing recorded: the deployment is '${plan.word}', not a final state. ${words.notFinalYet}`, false, 'Deployment not recorded: not finished yet', `the deployment was '${plan.word}', so nothing was recorded.`);
        case 'not-yet':
            return said(plan.why, true, 'Deployment not recorded: no state yet', 'the deployment had no state yet, so nothing was recorded.');
        case 'no-ids': {
            const subject = words.setting(constants .wB.DeploymentId);
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
        const stands = `({id} stands for the id of ${each} ${options.words.starter} would have created.)`;
        return report({ lines: info(placeholders ? stands : '', NOTHING_SENT) });
    }
    const { done, failures } = splitUpdates(results, status);
    const after = startedAt > 0 ? ` after ${formatDuration(Date.now() - startedAt)}` : '';
    const line = done.length ? `${(0,core_text .ZH)(deploymentsText(done))} set to ${status}${after}.` : '';
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
    return { failures: [], recorded: [], ids: [], status: '', ...parts };
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

var log = __nccwpck_require__(3456);
; 



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
    if (text.length > constants .xu.idLength)
        return `is ${text.length} characters long (at most ${constants .xu.idLength})`;
    if (FORBIDDEN.test(text))
        return 'holds control characters';
    if (!text.isWellFormed())
        return 'is not valid Unicode text';
    if (text === '.' || text === '..')
        return `is '${text}', which is no deployment but a path`;
    if ((0,log .Jk)(text))
        return 'would be read as a workflow command by the GitHub runner';
    if (text.trim() !== text)
        return 'has white space at its ends, which a later job would not read back';
    if (text.includes(','))
        return 'holds a comma, which a later job would read as two ids';
    if (text.startsWith('['))
        return "starts with '[', which a later job would read as a JSON array";
    return undefined;
}
function idsJson(ids) {
    return `[${ids.map((id) => (id.numeric ? id.text : JSON.stringify(id.text))).join(',')}]`;
}

var network_error = __nccwpck_require__(3647);
; 
async function settleAll(items, limit, task, signal) {
    const results = items.map(() => ({ status: 'not-started' }));
    let next = 0;
    async function worker() {
        while (next < items.length && !signal?.aborted) {
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

var secret = __nccwpck_require__(4080);
; 







class ServiceError extends Error {
    lines;
    status;
    constructor(lines, status) {
        super(lines.join('\n'));
        this.name = 'ServiceError';
        this.lines = lines;
        this.status = status;
    }
}
async function createAll(tracker, bodies, { signal, onCreated } = {}) {
    const create = async (body) => {
        const id = await tracker.create(body, signal);
        onCreated?.({ body, id });
        return id;
    };
    const settled = await settleAll(bodies, constants .xu.requestsInFlight, create, signal);
    return settled.map((result, index) => {
        const body = bodies[index];
        if (result.status === 'not-started')
            return { body, notSent: true };
        return result.status === 'fulfilled' ? { body, id: result.value } : { body, failure: failureLines(result.reason) };
    });
}
async function setStatusAll(tracker, ids, status, signal) {
    const settled = await settleAll(ids, constants .xu.requestsInFlight, (id) => tracker.update(id, status, signal));
    return settled.map((result, index) => {
        const id = ids[index];
        if (result.status === 'rejected')
            return { id, failure: failureLines(result.reason) };
        return { id };
    });
}
function failureLines(error) {
    if (error instanceof ServiceError)
        return error.lines;
    if (error instanceof network_error .D)
        return [error.message];
    return (0,core_text .g1)('unexpected error', error);
}
function createTracker(http, connection, { tool, serviceAddress }) {
    const { baseUrl, apiKey } = connection;
    const cut = (0,secret .sO)(apiKey);
    return {
        async create(body, signal) {
            const response = await http.send(createRequest(baseUrl, apiKey, body), signal);
            const answer = successAnswer(response, cut, serviceAddress);
            const head = `HTTP ${response.status}, but`;
            const id = answerId(response, answer.id, head, tool);
            if (!id || id.text === '')
                throw new ServiceError([`${head} the answer has no deployment \`id\``], response.status);
            const why = (0,secret .hK)(id.text, apiKey) ? 'holds the API key' : idProblem(id.text);
            if (why) {
                throw new ServiceError([
                    `${head} the deployment id it returned ${why}, so it is not kept (the service may have recorded a deployment ${tool} cannot finish)`,
                ], response.status);
            }
            return id;
        },
        async update(id, status, signal) {
            successAnswer(await http.send(updateRequest(baseUrl, apiKey, id, status), signal), cut, serviceAddress);
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
        headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'accept-encoding': 'identity',
            'x-api-key': apiKey,
        },
        body: JSON.stringify(body),
    };
}
function successAnswer(response, cut, serviceAddress) {
    const { status } = response;
    const body = parseAnswer(response.text);
    if (status >= 300 && status < 400) {
        const where = response.location
            ? `it points to '${cut(response.location, constants .xu.detailEntryLength, core_text .vj)}'`
            : 'it names no address';
        throw new ServiceError([
            `HTTP ${status}: a redirect, which is not followed (the API key would go along); ${where}. Set ${serviceAddress} to the service's own address.`,
        ], status);
    }
    if (status < 200 || status >= 300)
        throw new ServiceError(describeFailure(response, body, cut), status);
    const encoding = compressed(response, cut);
    if (encoding) {
        throw new ServiceError([
            `HTTP ${status}, but the answer is ${encoding}, so it is not read nor taken as a success (the service may have acted on the request)`,
        ], status);
    }
    if (!isObject(body)) {
        const why = response.truncated
            ? `is over ${constants .xu.answerBytes / 1024} KiB (only that much is read)`
            : 'is not a JSON object';
        throw new ServiceError([`HTTP ${status}, but the answer ${why}, so it is not taken as a success`], status);
    }
    if (body.success !== true)
        throw new ServiceError([`HTTP ${status}, but the answer does not say \`success: true\``], status);
    return body;
}
function compressed(response, cut) {
    const encoding = response.contentEncoding?.trim() ?? '';
    if (encoding === '' || encoding.toLowerCase() === 'identity')
        return undefined;
    const shown = cut(encoding, constants .xu.quotedValueLength, core_text .vj);
    return `compressed (content-encoding: ${shown}) although it was asked for none (accept-encoding: identity)`;
}
function describeFailure(response, body, cut = core_text .ml) {
    const head = `HTTP ${response.status}`;
    const shown = (text, max) => cut(text, max, core_text .vj);
    const encoding = compressed(response, cut);
    if (encoding)
        return [`${head} (the answer is ${encoding}, so it is not read)`];
    if (body === undefined) {
        if (response.truncated)
            return [`${head} (the answer is over ${constants .xu.answerBytes / 1024} KiB; it was not read whole)`];
        const type = response.contentType.split(';')[0]?.trim();
        return [`${head} (the answer is not JSON${type ? `: ${shown(type, constants .xu.quotedValueLength)}` : ''})`];
    }
    const detail = isObject(body) ? body.detail : undefined;
    if (detail === undefined || detail === null)
        return [`${head} (no \`detail\` in the answer)`];
    if (typeof detail === 'string')
        return [`${head}: ${shown(detail, constants .xu.detailLength)}`];
    if (Array.isArray(detail)) {
        const entries = detail.slice(0, constants .xu.detailEntries);
        const lines = entries.map((entry) => `  ${shown(describeValidationEntry(entry), constants .xu.detailEntryLength)}`);
        const more = detail.length - lines.length;
        return [`${head}:`, ...lines, ...(more > 0 ? [`  (and ${more} more)`] : [])];
    }
    return [`${head}: ${shown(json(detail), constants .xu.detailLength)}`];
}
function json(value) {
    return jsonText(value, 2 * constants .xu.answerBytes);
}
function describeValidationEntry(entry) {
    if (!isObject(entry))
        return json(entry);
    const location = Array.isArray(entry.loc) ? entry.loc.map(locationPart).join('.') : '';
    const message = typeof entry.msg === 'string' ? entry.msg : json(entry);
    return location ? `${location}: ${message}` : message;
}
function locationPart(part) {
    if (typeof part === 'string' || typeof part === 'number')
        return String(part);
    return json(part);
}
function parseAnswer(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
function answerId({ text, status }, value, head, tool) {
    if (typeof value !== 'number')
        return idFromJson(value);
    try {
        return idFromJson(parseJsonLosslessly(text).id);
    }
    catch {
        if (Number.isSafeInteger(value))
            return { text: String(value), numeric: true };
        throw new ServiceError([
            `${head} the answer nests too deep for its numeric id to be read exactly (the service may have recorded a deployment ${tool} cannot finish)`,
        ], status);
    }
}

; 

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

; 


async function withTracker({ connection, words }, log, dryRun, use) {
    if (dryRun)
        return use(dryRunTracker(connection, log));
    const { createHttpClient } = await Promise.all( [__nccwpck_require__.e(371), __nccwpck_require__.e(82)]).then(__nccwpck_require__.bind(__nccwpck_require__, 7082));
    const http = await createHttpClient({ ...connection, log, serviceAddress: words.serviceAddress });
    try {
        return await use(createTracker(http, connection, words));
    }
    finally {
        await http.close();
    }
}

; 


async function execute(plan, settings, log, options = {}) {
    switch (plan.kind) {
        case 'create':
            return {
                created: await withTracker(settings, log, settings.dryRun, (tracker) => createAll(tracker, plan.bodies, options)),
            };
        case 'update':
            return {
                updated: await withTracker(settings, log, settings.dryRun, (tracker) => setStatusAll(tracker, plan.ids, plan.status)),
            };
        default:
            return {};
    }
}

; 

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

; 


function splitList(raw) {
    return raw
        .split(/[\r\n,]/)
        .map((item) => item.trim())
        .filter((item) => item !== '');
}
function parseIdList(raw) {
    return raw.startsWith('[') ? parseIdArray(raw) : splitList(raw).map(textId);
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
        const id = idFromJson(value);
        return id && id.text !== '' ? id : undefined;
    });
}

; 
const external_node_fs_namespaceObject = require("node:fs");
; 



const VARIABLE = 'NODE_EXTRA_CA_CERTS';
function checkExtraCaCerts(env, usesTls, shown = core_text .hD) {
    const path = env[VARIABLE];
    if (!usesTls || !path)
        return;
    let stats;
    try {
        stats = (0,external_node_fs_namespaceObject.statSync)(path);
    }
    catch {
        return;
    }
    if (!stats.isFile()) {
        throw new ConfigError(`Environment variable ${VARIABLE}`, `names ${shown(path)}, which is not a regular file (Node.js would wait on it for ever): point it at the certificate authority's PEM file, or unset it.`);
    }
}

; 

const tls_check_VARIABLE = 'NODE_TLS_REJECT_UNAUTHORIZED';
function checkTlsVerification(env, usesTls) {
    if (!usesTls || env[tls_check_VARIABLE] !== '0')
        return;
    throw new ConfigError(`Environment variable ${tls_check_VARIABLE}`, `is '0', which turns off the check of the service's certificate: the API key would go to whichever server answers. report-deployment does not send it so. Unset the variable for report-deployment (or set it to 1); if the service's certificate comes from a private certificate authority, point NODE_EXTRA_CA_CERTS at that authority's PEM file instead.`);
}

; 


const DEFAULT_PORTS = { 'http:': 80, 'https:': 443 };
function proxyFor(target, env, shown = core_text .hD) {
    if (isLoopback(target.hostname))
        return undefined;
    const variable = proxyVariable(target.protocol, env);
    if (!variable)
        return undefined;
    const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
    if (!shouldProxy(hostOf(target), port, env.no_proxy ?? env.NO_PROXY ?? ''))
        return undefined;
    return { url: parseProxyUrl(variable.name, variable.value, shown), variable: variable.name };
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
function parseProxyUrl(variable, value, shown) {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
        throw new ConfigError(`Environment variable ${variable}`, `is not a proxy URL: ${shown(withoutCredentials(value))}. Set it to e.g. \`http://proxy.example.com:3128\`, or unset it.`);
    }
    if (!decodes(url.username) || !decodes(url.password)) {
        throw new ConfigError(`Environment variable ${variable}`, `has a user name or password that is not percent-encoded: ${shown(withoutCredentials(value))}. Write each \`%\` in them as \`%25\` (and \`@\`, \`:\`, \`/\` as \`%40\`, \`%3A\`, \`%2F\`).`);
    }
    url.pathname = '/';
    url.search = '';
    url.hash = '';
    return url;
}
function decodes(text) {
    try {
        decodeURIComponent(text);
        return true;
    }
    catch {
        return false;
    }
}
function hostOf(url) {
    return url.hostname
        .replace(/^\[(.+)\]$/, '$1')
        .replace(/^(.+)\.$/, '$1')
        .toLowerCase();
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

; 







function quoterFor(apiKey) {
    const clean = (0,secret .ZS)(apiKey);
    return (value) => (0,core_text .hD)(clean(value));
}
function readSettings(source, env) {
    const problems = new ProblemCollector();
    const settings = readCommon(source, env, problems, quoterFor(source.get(constants .wB.ApiKey)));
    problems.throwIfAny();
    return settings;
}
function readCommon(source, env, problems, shown) {
    const keyOrWarning = problems.read(() => readApiKey(source), { apiKey: '' });
    const allowInsecureHttp = problems.read(() => readBoolean(source, constants .wB.AllowInsecureHttp, shown), false);
    const baseUrl = problems.read(() => readBaseUrl(source, allowInsecureHttp, shown), undefined);
    const proxy = baseUrl && problems.read(() => proxyFor(baseUrl, env, shown), undefined);
    const usesTls = baseUrl?.protocol === 'https:' || proxy?.url.protocol === 'https:';
    problems.read(() => checkExtraCaCerts(env, usesTls, shown), undefined);
    problems.read(() => checkTlsVerification(env, usesTls), undefined);
    const timeoutSeconds = problems.read(() => readNumber(source, constants .wB.TimeoutSeconds, SECONDS, shown), 0);
    const retries = problems.read(() => readNumber(source, constants .wB.Retries, RETRIES, shown), 0);
    const failOnError = problems.read(() => readBoolean(source, constants .wB.FailOnError, shown), false);
    const dryRun = problems.read(() => readBoolean(source, constants .wB.DryRun, shown), false);
    const { apiKey, noKey } = keyOrWarning;
    return {
        connection: {
            apiKey,
            baseUrl: baseUrl,
            timeoutMs: timeoutSeconds * 1000,
            retries,
            proxy,
        },
        failOnError,
        dryRun,
        ...(noKey ? { noKey } : {}),
        words: source.words,
    };
}
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;
function readApiKey(source) {
    const apiKey = source.get(constants .wB.ApiKey);
    const subject = source.words.setting(constants .wB.ApiKey);
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
function readBaseUrl(source, allowInsecureHttp, quoted) {
    const raw = source.get(constants .wB.BaseUrl);
    const shown = quoted(withoutCredentials(raw));
    const example = 'e.g. `https://tracker.example.com/api`';
    const problem = (text) => new ConfigError(source.words.setting(constants .wB.BaseUrl), text);
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
        throw problem(`must not carry credentials; the key goes in ${source.words.assignment(constants .wB.ApiKey)}.`);
    }
    if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
        throw problem(`uses plain http to '${url.hostname}', which would send the API key in clear. Use https, or set ${source.words.assignment(constants .wB.AllowInsecureHttp, 'true')} if the network path is trusted.`);
    }
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/'))
        url.pathname += '/';
    return url;
}
function readBoolean(source, name, shown = core_text .hD) {
    const raw = source.get(name);
    const value = raw.toLowerCase();
    if (value === 'true')
        return true;
    if (value === 'false' || value === '')
        return false;
    throw new ConfigError(source.words.setting(name), `must be \`true\` or \`false\`, got ${shown(raw)}.`);
}
const SECONDS = {
    accepts: /^\d+(\.\d+)?$/,
    min: 0.001,
    max: constants .xu.timeoutSeconds,
    expected: 'a number of seconds above 0 and at most',
};
const RETRIES = { accepts: /^\d+$/, min: 0, max: constants .xu.retries, expected: 'a whole number from 0 to' };
function readNumber(source, name, range, shown) {
    const { accepts, min, max, expected } = range;
    const raw = source.get(name);
    const value = accepts.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) {
        throw new ConfigError(source.words.setting(name), `must be ${expected} ${max}, got ${shown(raw)}.`);
    }
    return value;
}

; 
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

; 








function readSettingsAndRequest(source, env, defaults) {
    const { settings, request, problem } = inspectSettingsAndRequest(source, env, defaults);
    if (problem)
        throw problem;
    return { settings, request };
}
function inspectSettingsAndRequest(source, env, defaults) {
    const problems = new ProblemCollector();
    const shown = quoterFor(source.get(constants .wB.ApiKey));
    const settings = readCommon(source, env, problems, shown);
    const request = readRequest(source, settings.connection.apiKey, defaults, problems, shown);
    return { settings, request, problem: problems.error() };
}
function readRequest(source, apiKey, defaults, problems, shown) {
    const status = problems.read(() => readStatus(source, shown), undefined);
    const rawDeploymentIds = source.get(constants .wB.DeploymentId);
    const deploymentIds = problems.read(() => readDeploymentIds(source, rawDeploymentIds, apiKey, shown), undefined);
    const artifacts = rawDeploymentIds === '' ? problems.read(() => readArtifacts(source), []) : [];
    const creates = rawDeploymentIds === '' && !(status && typeof status === 'object');
    problems.read(() => readType(source, shown), constants .C1);
    const given = Object.fromEntries(FieldNames.map((field) => [field, source.get(FieldSettings[field])]));
    const fields = creates ? resolveFields(given, defaults(), source.words, problems) : undefined;
    return { status, deploymentIds, artifacts, fields };
}
function readStatus(source, shown) {
    const raw = source.get(constants .wB.Status);
    if (raw === '')
        return readImpliedStatus(source, shown);
    const status = statusFromWord(raw);
    if (!status) {
        const implied = source.impliedStatus?.();
        const empty = implied === undefined
            ? ` ${source.words.statusHint}`
            : 'word' in implied
                ? ` Leave it empty to take it from ${implied.from}.`
                : '';
        throw new ConfigError(source.words.setting(constants .wB.Status), `must be one of STARTED, SUCCEEDED, FAILED (or success, failure, cancelled, skipped, or a GitHub deployment's state), got ${shown(raw)}.${empty}`);
    }
    return status;
}
function readImpliedStatus(source, shown) {
    const implied = source.impliedStatus?.();
    if (implied === undefined)
        return undefined;
    if ('nothing' in implied)
        return { nothing: 'not-yet', why: implied.nothing };
    const status = statusFromWord(implied.word);
    if (status === 'SUCCEEDED' || status === 'FAILED' || typeof status === 'object')
        return status;
    throw new ConfigError(source.words.setting(constants .wB.Status), `is empty, so the status comes from ${implied.from}: ${shown(implied.word)}, which is neither a finished state nor one that records nothing. Set ${source.words.assignment(constants .wB.Status)} to say what to record.`);
}
function readType(source, shown) {
    const raw = source.get(constants .wB.Type);
    if (raw === '' || raw.toUpperCase() === constants .C1)
        return constants .C1;
    throw new ConfigError(source.words.setting(constants .wB.Type), `must be ${constants .C1} (the only type the service accepts), got ${shown(raw)}.`);
}
function artifactIdValue(raw) {
    return /^(0|[1-9]\d*)$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}
function readArtifacts(source) {
    const byId = splitList(source.get(constants .wB.ArtifactId)).map((id) => ({ artifactId: artifactIdValue(id) }));
    const byName = splitList(source.get(constants .wB.ArtifactName)).map((name) => ({ artifactName: name }));
    const artifacts = [...byId, ...byName];
    const subject = source.words.setting(constants .wB.ArtifactId, constants .wB.ArtifactName);
    const { unit } = source.words;
    if (artifacts.length === 0) {
        throw new ConfigError(subject, `must be set: name the deployed artifact by its id or its name in the tracking service (a comma- or newline-separated list for several), or set ${source.words.assignment(constants .wB.DeploymentId)} to update an existing deployment.`);
    }
    if (artifacts.length > constants .xu.idsPerStep) {
        throw new ConfigError(subject, `name ${artifacts.length} artifacts; one ${unit} records at most ${constants .xu.idsPerStep}. Split them over several ${unit}s.`);
    }
    return artifacts;
}
function readDeploymentIds(source, raw, apiKey, shown) {
    if (raw === '')
        return undefined;
    const problem = (text) => new ConfigError(source.words.setting(constants .wB.DeploymentId), text);
    const { unit } = source.words;
    const ids = parseIdList(raw);
    if (!ids)
        throw problem(`looks like a JSON array but is not one: ${shown(raw)}.`);
    if (ids.some((id) => id === undefined)) {
        throw problem(`must be an id, a list of ids or a JSON array of ids, got ${shown(raw)}.`);
    }
    if (ids.length > constants .xu.idsPerStep) {
        throw problem(`holds ${ids.length} ids; one ${unit} updates at most ${constants .xu.idsPerStep}. Split them over several ${unit}s.`);
    }
    for (const id of ids) {
        if ((0,secret .hK)(id.text, apiKey))
            throw problem('holds the API key as an id (are two secrets swapped?).');
        const why = idProblem(id.text);
        if (why)
            throw problem(`holds an id that ${why}: ${shown(id.text)}.`);
    }
    return ids;
}

; 
const external_os_namespaceObject = require("os");
; 
function utils_toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
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
; 


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
; 
const external_node_crypto_js_namespaceObject = require("./node-crypto.js");
; 
const external_fs_namespaceObject = require("fs");
; 




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
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_namespaceObject.EOL}${convertedValue}${external_os_namespaceObject.EOL}${delimiter}`;
}
; 
const external_path_namespaceObject = require("path");
; 
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
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Bearer ${this.token}`;
    }
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
    prepareRequest(options) {
        if (!options.headers) {
            throw Error('The request has no headers');
        }
        options.headers['Authorization'] = `Basic ${Buffer.from(`PAT:${this.token}`).toString('base64')}`;
    }
    canHandleAuthentication() {
        return false;
    }
    handleAuthentication() {
        return __awaiter(this, void 0, void 0, function* () {
            throw new Error('not implemented');
        });
    }
}
; 
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
; 
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
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    write(options) {
        return summary_awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    clear() {
        return summary_awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    stringify() {
        return this._buffer;
    }
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    addEOL() {
        return this.addRaw(external_os_namespaceObject.EOL);
    }
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
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
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
const markdownSummary = (  null && (_summary));
const summary = (  null && (_summary));
; 

function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, path.sep);
}
; 
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
; 
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};






var ExitCode;
(function (ExitCode) {
    ExitCode[ExitCode["Success"] = 0] = "Success";
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
}
function core_setSecret(secret) {
    command_issueCommand('add-mask', {}, secret);
}
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
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
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
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return file_command_issueFileCommand('OUTPUT', file_command_prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_namespaceObject.EOL);
    command_issueCommand('set-output', { name }, utils_toCommandValue(value));
}
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
function core_debug(message) {
    command_issueCommand('debug', {}, message);
}
function error(message, properties = {}) {
    command_issueCommand('error', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function warning(message, properties = {}) {
    command_issueCommand('warning', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
function core_info(message) {
    process.stdout.write(message + external_os_namespaceObject.EOL);
}
function startGroup(name) {
    issue('group', name);
}
function endGroup() {
    issue('endgroup');
}
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
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return file_command_issueFileCommand('STATE', file_command_prepareKeyValueMessage(name, value));
    }
    command_issueCommand('save-state', { name }, utils_toCommandValue(value));
}
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        return yield OidcClient.getIDToken(aud);
    });
}




; 

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);
const DEPENDABOT_EVENTS = new Set([...PULL_REQUEST_EVENTS, 'push', 'create', 'deployment', 'deployment_status']);
const DEPENDABOT = 'dependabot[bot]';
function secretsWithheld({ eventName, payload, env, }) {
    const pullRequest = field(payload, 'pull_request');
    if (env.GITHUB_ACTOR === DEPENDABOT) {
        if (DEPENDABOT_EVENTS.has(eventName)) {
            return "GitHub gives a workflow run that Dependabot started Dependabot's secrets only";
        }
        if (eventName === 'pull_request_target' && github_secrets_text(field(field(pullRequest, 'user'), 'login')) === DEPENDABOT) {
            return 'GitHub gives a pull_request_target run for a pull request that Dependabot opened no secrets';
        }
    }
    if (!PULL_REQUEST_EVENTS.has(eventName))
        return undefined;
    const head = field(field(pullRequest, 'head'), 'repo');
    const base = field(field(pullRequest, 'base'), 'repo');
    const headName = github_secrets_text(field(head, 'full_name'));
    const baseName = github_secrets_text(field(base, 'full_name'));
    const fromFork = head === null || (headName !== '' && baseName !== '' && headName !== baseName);
    return fromFork ? 'GitHub gives a workflow run for a pull request from a fork no secrets' : undefined;
}
function github_secrets_text(value) {
    return typeof value === 'string' ? value : '';
}

; 
const ACTION_WORDS = {
    setting: (...names) => `Input ${names.map((name) => `'${name}'`).join(' or ')}`,
    assignment: (name, value) => (value === undefined ? `\`${name}\`` : `\`${name}: ${value}\``),
    serviceAddress: '`base-url`',
    tool: 'this action',
    unit: 'step',
    statusHint: 'Leave it empty to start the deployment here and finish it when the job ends.',
    starter: 'the main step',
    finisher: 'the post step',
    finishFrom: 'the job status',
    finishWhen: 'when the job ends',
    notFinalYet: 'A workflow on `deployment_status` records it once its state is success, failure or error (a STARTED record now would stay unfinished beside that one).',
};

; 




const readInput = (name) => getInput(name);
function inputSettings(run) {
    return {
        get: readInput,
        words: ACTION_WORDS,
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
            return deploymentEventStatus(run(), ACTION_WORDS);
        },
    };
}

; 
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

; 
const external_node_os_namespaceObject = require("node:os");
; 


function appendToRunnerFile(variable, text) {
    const path = process.env[variable] ?? '';
    const name = `${variable} (${path})`;
    let fd;
    try {
        fd = (0,external_node_fs_namespaceObject.openSync)(path, external_node_fs_namespaceObject.constants.O_WRONLY | external_node_fs_namespaceObject.constants.O_APPEND | external_node_fs_namespaceObject.constants.O_NONBLOCK);
    }
    catch (error) {
        throw new Error(`${name} ${openProblem(error)}`, { cause: error });
    }
    try {
        if (!(0,external_node_fs_namespaceObject.fstatSync)(fd).isFile())
            throw new Error(`${name} is not a regular file (writing to it could hold the step)`);
        const bytes = Buffer.from(text, 'utf8');
        for (let written = 0; written < bytes.length;) {
            const count = (0,external_node_fs_namespaceObject.writeSync)(fd, bytes, written);
            if (count <= 0)
                throw new Error(`${name} took no more bytes`);
            written += count;
        }
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
function keyValueBlocks(values) {
    return Object.entries(values)
        .map(([name, value]) => {
        const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
        if (value.includes(delimiter))
            throw new Error(`The value of ${name} holds its delimiter`);
        return `${name}<<${delimiter}${external_node_os_namespaceObject.EOL}${value}${external_node_os_namespaceObject.EOL}${delimiter}${external_node_os_namespaceObject.EOL}`;
    })
        .join('');
}
const OPEN_PROBLEMS = {
    ENOENT: 'does not exist',
    ENOTDIR: 'does not exist (a part of its path is no folder)',
    ENXIO: 'is a pipe that nobody reads (writing to it would hold the step)',
    EISDIR: 'is a folder',
    EACCES: 'may not be written (permission denied)',
    EPERM: 'may not be written (operation not permitted)',
    ELOOP: 'is a loop of symbolic links',
    ENAMETOOLONG: 'has a name too long to open',
    EROFS: 'is on a read-only file system',
};
function openProblem(error) {
    const code = error.code;
    if (typeof code === 'string' && Object.hasOwn(OPEN_PROBLEMS, code))
        return OPEN_PROBLEMS[code];
    return `could not be opened (${typeof code === 'string' ? code : String(error)})`;
}

; 






const NOTE_LENGTH = 1000;
function saveHandoff(handoff) {
    const value = encodeHandoff(handoff);
    if (process.env.GITHUB_STATE)
        appendToRunnerFile('GITHUB_STATE', keyValueBlocks({ [State.Handoff]: value }));
    else
        saveState(State.Handoff, value);
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
            if (!(Number.isInteger(count) && count > 0 && count <= constants .xu.idsPerStep)) {
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
    if (!Array.isArray(raw) || raw.length === 0 || raw.length > constants .xu.idsPerStep) {
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

; 



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
    if (!process.env.GITHUB_STEP_SUMMARY)
        return log.debug('No GITHUB_STEP_SUMMARY: job summary skipped.');
    try {
        appendToRunnerFile('GITHUB_STEP_SUMMARY', renderSummary(content, log.clean));
    }
    catch (error) {
        log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
    }
}
function renderSummary(content, clean) {
    const text = (value, max = Infinity) => clean((0,core_text .ZD)((0,core_text .ml)(clean(value), max)));
    const budget = new Budget(constants .xu.summaryBytes);
    const parts = [`<h3>${text(content.heading, constants .xu.summaryCellLength)}</h3>`];
    for (const line of content.lines ?? [])
        parts.push(`<p>${text(line, constants .xu.detailLength)}</p>`);
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
        const items = failures.map((lines) => `<li>${lines.map((line) => text(line, constants .xu.detailLength)).join('<br>')}</li>`);
        const shown = budget.take(items);
        parts.push(`<ul>${shown.join('')}</ul>`);
        if (shown.length < items.length)
            parts.push(`<p>${items.length - shown.length} more failures are not shown here (see the log).</p>`);
    }
    return `${parts.join('\n')}\n`;
}
function tableRow(row, clean) {
    const cell = (value) => clean((0,core_text .ZD)((0,core_text .ml)(clean(value), constants .xu.summaryCellLength)));
    const link = /^https?:\/\//i.test(row.link)
        ? `<a href="${cell(row.link)}">${cell(linkText(row.link))}</a>`
        : cell(row.link);
    return [
        cell(row.artifact),
        cell(row.environment),
        cell(row.version),
        `<code>${clean((0,core_text .ZD)(clean(row.commitSha).slice(0, 7)))}</code>`,
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

; 








function reportStart(report, failOnError, log) {
    handOn(log, report.open ?? { note: '' }, report.ids, report.status);
    show(report, failOnError, log);
}
function handOnCreated(ids, startedAt, log) {
    write(log, 'state', () => saveHandoff({ dryRun: false, ids: [...ids], startedAt }));
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
    const message = `The job status is unknown (${(0,core_text .hD)(log.clean(jobStatus))}), so ${left}. The \`job-status\` input must keep its default, \`\${{ job.status }}\`.`;
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
const failed = new WeakMap();
function write(log, what, action) {
    try {
        action();
    }
    catch (error) {
        const said = failed.get(log) ?? new Set();
        failed.set(log, said);
        if (said.has(what))
            return;
        said.add(what);
        log.warning(`Could not write the step's ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
}
function setOutputs(ids, status) {
    const outputs = {
        [Outputs.DeploymentId]: ids[0]?.text ?? '',
        [Outputs.DeploymentIds]: idsJson(ids),
        [Outputs.Status]: status,
    };
    if (process.env.GITHUB_OUTPUT)
        return appendToRunnerFile('GITHUB_OUTPUT', keyValueBlocks(outputs));
    for (const [name, value] of Object.entries(outputs))
        setOutput(name, value);
}

; 




const FALLBACK = 'the defaults come from the GITHUB_* variables alone';
function readEventFile(path, log, fs = external_node_fs_namespaceObject) {
    if (!path)
        return {};
    const said = (problem) => {
        log.warning(`The event file (GITHUB_EVENT_PATH) ${problem}: ${FALLBACK}.`);
        return {};
    };
    let text;
    try {
        const problem = fileProblem(fs.statSync(path));
        if (problem)
            return said(problem);
        text = readBounded(path, fs);
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
    if (stats.size > constants .xu.eventFileBytes)
        return `is over ${constants .xu.eventFileBytes / 1024 / 1024} MiB`;
    return undefined;
}
function readBounded(path, fs) {
    const fd = fs.openSync(path, external_node_fs_namespaceObject.constants.O_RDONLY | external_node_fs_namespaceObject.constants.O_NONBLOCK);
    try {
        const problem = fileProblem(fs.fstatSync(fd));
        if (problem)
            throw new EventFileError(problem);
        const chunks = [];
        let size = 0;
        for (;;) {
            const chunk = Buffer.allocUnsafe(64 * 1024);
            const read = fs.readSync(fd, chunk, 0, chunk.length, null);
            if (read === 0)
                break;
            chunks.push(chunk.subarray(0, read));
            size += read;
            if (size > constants .xu.eventFileBytes)
                throw new EventFileError(`is over ${constants .xu.eventFileBytes / 1024 / 1024} MiB`);
        }
        return Buffer.concat(chunks, size).toString('utf8');
    }
    finally {
        fs.closeSync(fd);
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
    EAGAIN: 'would make the step wait (a special file with nothing to read yet)',
};
function describeReadError(error) {
    if (error instanceof EventFileError)
        return error.message;
    const code = error.code;
    if (typeof code === 'string' && Object.hasOwn(ERRORS, code))
        return ERRORS[code];
    return `could not be read (${typeof code === 'string' ? code : String(error)})`;
}

; 



function readGitHubContext(log) {
    const { env } = process;
    return {
        eventName: env.GITHUB_EVENT_NAME ?? '',
        payload: readEventFile(env.GITHUB_EVENT_PATH, log),
        env,
        checkRunId: readInput(Internal.JobCheckRunId),
    };
}

; 










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
    const created = [];
    const onCreated = ({ id }) => {
        created.push(id);
        handOnCreated(created, startedAt, log);
    };
    const handsOn = plan.kind === 'create' && plan.finishLater && !settings.dryRun;
    const results = await whileNotCancelled(plan, log, (signal) => execute(plan, settings, log, handsOn ? { signal, onCreated } : { signal }));
    const report = describeStart(plan, results, { dryRun: settings.dryRun, startedAt, words: ACTION_WORDS });
    reportStart(report, settings.failOnError, log);
}
async function whileNotCancelled(plan, log, work) {
    const controller = new AbortController();
    const cancel = () => {
        if (controller.signal.aborted)
            return;
        log.info(describeCancel(plan, ACTION_WORDS));
        controller.abort();
    };
    process.on('SIGINT', cancel);
    process.on('SIGTERM', cancel);
    try {
        return await work(controller.signal);
    }
    finally {
        process.off('SIGINT', cancel);
        process.off('SIGTERM', cancel);
    }
}

; 













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
    const results = await withTracker(settings, log, dryRun, (tracker) => setStatusAll(tracker, ids, status));
    const report = describeFinish(status, results, {
        dryRun,
        startedAt: open.dryRun ? 0 : open.startedAt,
        placeholders: open.dryRun && !open.ids ? open.count : undefined,
        words: ACTION_WORDS,
    });
    reportFinish(report, settings.failOnError, log);
}

; 



function openLog(apiKey) {
    for (const form of (0,secret .eo)(apiKey))
        core_setSecret(form);
    const clean = (0,secret .ZS)(apiKey);
    const lines = (text) => (typeof text === 'string' ? [text] : text).map(clean);
    return {
        info: (text) => lines(text)
            .flatMap(log .wi)
            .forEach((line) => core_info(line)),
        warning: (text) => warning(lines(text).join('\n')),
        fail: (text) => setFailed(lines(text).join('\n')),
        debug: (text) => {
            if (isDebug())
                core_debug(lines(typeof text === 'function' ? text() : text).join('\n'));
        },
        clean,
    };
}

; 







async function runStep(step) {
    const log = openLog(readInput(constants .wB.ApiKey));
    try {
        await step(log);
    }
    catch (error) {
        applyFailurePolicy([(0,core_text .g1)('report-deployment stopped unexpectedly', error)], failOnError(), log);
    }
}
function failOnError() {
    try {
        return readBoolean({ get: readInput, words: ACTION_WORDS }, constants .wB.FailOnError);
    }
    catch {
        return false;
    }
}

; 



const main = () => runStep(run);
const post = () => runStep(post_run);

module.exports = __webpack_exports__;
  })()
;