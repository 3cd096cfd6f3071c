'use strict';
// Tier: quick (the upgrade preset's settings; the upgrade matrix itself is in test/all/upgrade.test.js)
// The Node upgrade's integrity scenarios (handlers/scenarios/upgrade.js): the upgrade
// preset's runtimes and scenarios. The scenarios run on Node 20 and 24, AsyncContextFrame
// off and on, against their measured table: test/all/upgrade.test.js.
const test = require('node:test');
const assert = require('node:assert');
const { resolveSettings } = require('../bench/cli/integrity');
const { SCENARIOS } = require('./helpers/upgrade-table');

test(
  '--preset upgrade: the group upgrade on Node 20, 22, ' + '24 and 26, AsyncContextFrame off and on, into its own file',
  () => {
    const s = resolveSettings({ preset: 'upgrade' });
    assert.deepStrictEqual([s.node, s.acf, s.scenarios], [['20', '22', '24', '26'], 'both', SCENARIOS]);
  },
);
