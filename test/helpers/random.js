'use strict';
// Seeded randomness for simulations in tests, so every run draws the same numbers.

// mulberry32: uniform in [0, 1).
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
