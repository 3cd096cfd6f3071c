'use strict';
// Tier: quick (two kinds interrupted for real: run in duet, and
// repro; the other kinds are in test/all/interrupt.test.js)
// Every measuring command goes through one session (bench/run/session.js): one Ctrl-C
// handler, the run JSON saved as it goes, the report regenerated at the end. Each kind is
// interrupted once, as soon as its run JSON exists, and must answer the same way: the
// handler's line, exit 130, a run JSON marked "interrupted", a report of it, no stack trace.
// The kinds and the test: test/helpers/interrupt.js.
const { KINDS, QUICK, interruptTest } = require('./helpers/interrupt');

for (const k of KINDS.filter((x) => QUICK.includes(x.name))) interruptTest(k);
