'use strict';
// Required by the test files whose servers go to CPU 0 (lib/cpus.js: CTXBENCH_CPUS=1,0),
// so that such a file and one loading CPU 1 run side by side instead of queueing on one
// CPU (npm test runs two files at a time; measured: with every file on CPU 1, CPU 1 ran 88%
// busy and CPU 0 42%; split, both ~88%). Children the file starts inherit the variable.
process.env.CTXBENCH_CPUS = '1,0';
