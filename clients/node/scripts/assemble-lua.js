'use strict';
// Build step (npm's `prepare`): assemble core's Lua scripts the way core's io.delayq.script.LuaScript
// does and write them to lib/scripts.json, which the library loads. Core keeps one file per operation in
// src/main/resources/delayq/lua and pastes helpers from its include/ folder where a line reads
// `--@include name.lua`. Nothing generated is kept in git; the interop tests compare every script's
// SHA-1 with the one core's Java code computes.
const fs = require('node:fs');
const path = require('node:path');

const INCLUDE = /^--@include (\S+)$/gm;

function assemble(luaDir) {
  const scripts = {};
  const files = fs.readdirSync(luaDir).filter((f) => f.endsWith('.lua')).sort();
  for (const file of files) {
    const raw = fs.readFileSync(path.join(luaDir, file), 'utf8');
    scripts[file.slice(0, -4)] = raw.replace(INCLUDE, (_, name) => fs.readFileSync(path.join(luaDir, 'include', name), 'utf8'));
  }
  if (files.length === 0) throw new Error(`no Lua scripts in ${luaDir}`);
  return scripts;
}

function main() {
  const luaDir = process.env.DELAYQ_CORE_LUA || path.resolve(__dirname, '..', '..', '..', 'src', 'main', 'resources', 'delayq', 'lua');
  const target = path.resolve(__dirname, '..', 'lib', 'scripts.json');
  if (!fs.existsSync(luaDir)) {
    if (fs.existsSync(target)) return; // an installed package: built where core's files were
    console.error(`delayq: core's Lua scripts not found at ${luaDir}; install from a delayq checkout (npm install ./clients/node) or set DELAYQ_CORE_LUA`);
    process.exit(1);
  }
  fs.writeFileSync(target, JSON.stringify({ scripts: assemble(luaDir) }, null, 1) + '\n');
}

module.exports = { assemble };
if (require.main === module) main();
