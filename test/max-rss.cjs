// Preloaded (`node --require`) into a step whose memory a test bounds: at exit, the process's peak
// resident memory in KiB, into the file MAX_RSS_FILE names.
'use strict';
const { writeFileSync } = process.getBuiltinModule('node:fs');

process.on('exit', () => writeFileSync(process.env.MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));
