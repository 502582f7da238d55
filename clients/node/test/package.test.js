'use strict';
// The Node.js versions the package claims are the ones its dependency needs, and the same in every place that
// states them: package.json's engines (what npm checks), the lock file, the README and docs/protocol.md.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const floor = (range) => {
  const m = /^>=\s*(\d+)(\.0)*(\.0)*$/.exec(range);
  assert.ok(m, `engines.node should be a plain lower bound, got '${range}'`);
  return Number(m[1]);
};

test("engines.node is ioredis's floor, in package.json and its lock file", () => {
  const pkg = JSON.parse(read('package.json'));
  const ioredis = JSON.parse(fs.readFileSync(require.resolve('ioredis/package.json'), 'utf8'));
  assert.equal(floor(pkg.engines.node), floor(ioredis.engines.node));
  assert.equal(JSON.parse(read('package-lock.json')).packages[''].engines.node, pkg.engines.node);
});

test('the README and docs/protocol.md state the same Node.js version, and the tests run on one', () => {
  const major = floor(JSON.parse(read('package.json')).engines.node);
  assert.match(read('README.md'), new RegExp(`Node\\.js ≥ ${major} `));
  const protocolDoc = path.join(root, '..', '..', 'docs', 'protocol.md');
  if (fs.existsSync(protocolDoc)) {
    assert.match(fs.readFileSync(protocolDoc, 'utf8'), new RegExp(`\\| Node\\.js ≥ ${major} \\|`));
  }
  assert.ok(Number(process.versions.node.split('.')[0]) >= major, `running on Node.js ${process.versions.node}`);
});
