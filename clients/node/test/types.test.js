'use strict';
// index.d.ts is hand-written: TypeScript (a devDependency) compiles a typed use of the whole API against it.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

test('the README example type-checks against index.d.ts (tsc --strict)', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types')], { encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
});
