// The post step (action.yml runs.post): written by scripts/build.ts around the shared bundle.
void require('../index.js').post();
