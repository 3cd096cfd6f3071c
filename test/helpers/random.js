'use strict';
// Seeded randomness for simulations in tests, so every run draws the same numbers.

// mulberry32: uniform in [0, 1) (lib/random.js, which the analysis resamples with).
const { mulberry32 } = require('../../lib/random');

// Standard normal draws (Box–Muller) from a uniform source.
function normalFrom(uniform) {
  return () => {
    let u = 0;
    while (u === 0) u = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}

// { uniform, normal } from one seed.
function rng(seed) {
  const uniform = mulberry32(seed);
  return { uniform, normal: normalFrom(uniform) };
}

module.exports = { mulberry32, normalFrom, rng };
