'use strict';
// delayq producer for Node.js: schedules tasks in delayq delay queues with core's own Lua scripts.
const { DelayQueue } = require('./client');
const errors = require('./errors');
const protocol = require('./protocol');
const { SCRIPTS } = require('./scripts');

module.exports = {
  DelayQueue,
  ...errors,
  DuplicatePolicy: protocol.DuplicatePolicy,
  Priority: protocol.Priority,
  PROTOCOL_VERSION: protocol.PROTOCOL_VERSION,
  decodeRecord: protocol.decodeRecord,
  shardOf: protocol.shardOf,
  bucketOf: protocol.bucketOf,
  scripts: SCRIPTS,
  protocol,
  Layout: require('./layout').Layout,
  Outbox: require('./outbox').Outbox,
  Calendar: require('./calendar').Calendar,
  afterBusinessDays: require('./calendar').afterBusinessDays,
  rollForward: require('./calendar').rollForward,
};
