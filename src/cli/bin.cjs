#!/usr/bin/env node
// report-deployment's launcher, copied next to the CLI's bundle by the build: written for any Node,
// so that an older one says which version is needed instead of failing on syntax it cannot read.
'use strict';
// SIGUSR1 would open Node's inspector on 127.0.0.1:9229, where any local user could read the API key
// out of the CLI or run code as its user: a listener of our own takes the signal first, and ignores
// it (Node 22.0 to 22.13 know no --disable-sigusr1, and a shebang cannot carry it everywhere).
process.on('SIGUSR1', function () {});
var major = Number(process.versions.node.split('.')[0]);
if (!(major >= 22)) {
  process.stderr.write(
    'report-deployment: needs Node.js 22 or later; this is Node.js ' +
      process.version +
      '.\n' +
      'Install Node.js 22 or later (https://nodejs.org/) and run it again.\n',
  );
  process.exit(2);
}
require('./index.js').main(require('../package.json').version);
