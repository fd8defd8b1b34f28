#!/usr/bin/env node
// report-deployment's launcher, copied next to the CLI's bundle by the build: written for any Node,
// so that an older one says which version is needed instead of failing on syntax it cannot read.
'use strict';
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
