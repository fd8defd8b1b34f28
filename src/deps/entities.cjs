// The reach into `entities` (HTML5's character references, every named one), for the key's
// scrubbing (core/secret.ts). CommonJS, so that its `require` stays inside the function: the
// bundler then evaluates the package (decoding its tables is a start-up of its own) on the first call, which
// comes only when a text holds an `&`, not at every step's start.
'use strict';

let decodeHTML;

/** Text with every HTML character reference decoded as a browser reads text (legacy mode). */
function decodeHtml(text) {
  decodeHTML ??= require('entities/decode').decodeHTML;
  return decodeHTML(text);
}

module.exports = { decodeHtml };
