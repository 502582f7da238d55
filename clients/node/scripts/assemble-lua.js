'use strict';
// Build step (npm's `prepare`): assemble core's Lua scripts the way core does and write them to lib/scripts.json,
// which the library loads. Core keeps one file per operation and pastes a helper where a line reads
// `--@include name.lua`: protocol 2's scripts are src/main/resources/delayq/lua/*.lua with helpers from include/
// (io.delayq.script.LuaScript); protocol 3's are p3/*.lua with helpers from p3/include/, then include/
// (io.delayq.bucket.BucketScript), named "p3/<name>" as core's interop tests name them. Nothing generated is kept in
// git; the interop tests compare every script's SHA-1 with the one core's Java code computes.
const fs = require('node:fs');
const path = require('node:path');

const INCLUDE = /^--@include (\S+)$/gm;
const PROTOCOL_3_PREFIX = 'p3/';

/** A helper's text from the first folder that holds it (core's io.delayq.script.LuaSource). */
function readHelper(name, includeDirs, script) {
  const dir = includeDirs.find((d) => fs.existsSync(path.join(d, name)));
  if (dir === undefined) throw new Error(`Lua include ${name} of ${script} is in none of ${includeDirs.join(', ')}`);
  return fs.readFileSync(path.join(dir, name), 'utf8');
}

/** One script with each include line replaced by its helper (helpers are not expanded again, as in core). */
function assembleFile(file, includeDirs) {
  return fs.readFileSync(file, 'utf8').replace(INCLUDE, (_, name) => readHelper(name, includeDirs, file));
}

/** Every *.lua file of dir (not its subfolders), named prefix + its file name without ".lua". */
function assembleFolder(dir, prefix, includeDirs) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.lua')).sort();
  if (files.length === 0) throw new Error(`no Lua scripts in ${dir}`);
  return Object.fromEntries(files.map((f) => [prefix + f.slice(0, -4), assembleFile(path.join(dir, f), includeDirs)]));
}

function assemble(luaDir) {
  const p3 = path.join(luaDir, 'p3');
  return {
    ...assembleFolder(luaDir, '', [path.join(luaDir, 'include')]),
    ...assembleFolder(p3, PROTOCOL_3_PREFIX, [path.join(p3, 'include'), path.join(luaDir, 'include')]),
  };
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
