// The main step (action.yml runs.main): written by scripts/build.ts around the shared bundle.
void require('../index.js').main();
