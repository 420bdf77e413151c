'use strict';
// Stands in for the `bindings` package inside dist/cli.cjs, the bundle `context` runs through
// its code cache (tsup.config.ts bundles better-sqlite3's JavaScript there, so that a start
// resolves and compiles none of its fourteen files). better-sqlite3 asks for its addon by name:
// it is loaded from better-sqlite3's build/Release directly, without the search `bindings`
// makes from the caller's stack (which, bundled, would look beside the CLI); anywhere else, the
// real `bindings` looks as it always did, and says the same things when the addon is missing.
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The addon `name` of the package at `root`. */
function loadFrom(root, name) {
  const built = join(root, 'build', 'Release', name);
  if (existsSync(built)) return require(built);
  return require(require.resolve('bindings', { paths: [root] }))({ bindings: name, module_root: root });
}

module.exports = function bindings(name) {
  return loadFrom(dirname(require.resolve('better-sqlite3/package.json')), name);
};
module.exports.loadFrom = loadFrom;
