'use strict';
// Named parameter matrices, declared as data (as Node core's benchmark/ does). A preset
// is either a cross product (strategies × depths × hops × frameworks) or an explicit
// list of `configs` when the study it reproduces was not a cross product. `node` names
// the majors the servers run on (default: the active LTS line, DEFAULT_MAJOR).

// What an option of `ctxbench run` is when neither its flag nor the preset sets it: the
// plan's defaults (lib/plan.js). --help is written from them and from PRESETS, docs/options.md
// is generated from --help (scripts/docs-options.js), and test/options-doc.test.js fails
// when they disagree.
const { DEFAULTS } = require('./plan');

// Each family of studies is declared in a file of its own (lib/presets-*.js); PRESETS keeps the
// order they were added in, which --help, docs/options.md and the report list them in.
const { RUN_PRESETS, MODEL_STRATEGIES } = require('./presets-run');
const { STUDY_PRESETS } = require('./presets-studies');
const { RATE_PRESETS } = require('./presets-rate');

const PRESETS = { ...RUN_PRESETS, ...STUDY_PRESETS, ...RATE_PRESETS };

// The studies the headline's timed columns read (analysis/strategy-sources.js pickSources):
// `ctxbench headline` measures them on one machine, within the sum of their --max-time.
const HEADLINE_PRESETS = ['default', 'popular', 'io', 'latency', 'deployment-f1'];

// Shrinks any preset to a smoke run: same shape, first depth only, short bursts, the
// minimum 3 blocks of one round, no precision target. Numbers from it are not precise
// and the report says so.
function quick(preset) {
  return {
    ...preset,
    depths: preset.depths.slice(0, 1),
    duration: 1,
    warmup: 0.5,
    blocks: 3,
    rounds: 1,
    precision: null,
  };
}

module.exports = { PRESETS, DEFAULTS, HEADLINE_PRESETS, quick, MODEL_STRATEGIES };
