'use strict';
// Core's Lua scripts as assembled at build time (lib/scripts.json, written by scripts/assemble-lua.js).
const crypto = require('node:crypto');
const path = require('node:path');
const fs = require('node:fs');
const { DelayQueueException } = require('./errors');

function load() {
  const file = path.join(__dirname, 'scripts.json');
  if (!fs.existsSync(file)) {
    throw new DelayQueueException('this delayq package holds no Lua scripts (lib/scripts.json is missing): it was not built by its '
      + "prepare step; install it from a delayq checkout with: npm install ./clients/node (or run 'npm run prepare' in clients/node)");
  }
  const scripts = {};
  for (const [name, source] of Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')).scripts)) {
    scripts[name] = { name, source, sha: crypto.createHash('sha1').update(source, 'utf8').digest('hex') };
  }
  return Object.freeze(scripts);
}

const SCRIPTS = load();

module.exports = { SCRIPTS };
