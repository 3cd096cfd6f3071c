'use strict';
// Tier: all (the other measuring kinds interrupted for real, Valgrind's among them: each a real run of its own)
// Every measuring command answers one Ctrl-C the same way (test/interrupt.test.js has the
// quick tier's kinds; the kinds and the test: test/helpers/interrupt.js).
const { KINDS, QUICK, interruptTest } = require('../helpers/interrupt');

for (const k of KINDS.filter((x) => !QUICK.includes(x.name))) interruptTest(k);
