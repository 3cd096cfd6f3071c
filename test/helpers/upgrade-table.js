'use strict';
// The Node upgrade's integrity scenarios (handlers/scenarios/upgrade.js), in the order of the
// measured table's columns, shared by test/upgrade.test.js (what --preset upgrade runs) and
// test/all/upgrade.test.js (the table itself, every answer checked).
const SCENARIOS = [
  'thenable',
  'exit-enter',
  'enter-in-callback',
  'asyncresource-bind',
  'unhandled-rejection',
  'timer-in-run',
];

module.exports = { SCENARIOS };
