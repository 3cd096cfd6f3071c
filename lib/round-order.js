'use strict';

// The one round rotation (bench/run/matrix.js, bench/methods/, micro/index.js): round r starts
// at item r, so over n rounds every item takes every position once.
function roundOrder(items, round) {
  const k = round % Math.max(items.length, 1);
  return [...items.slice(k), ...items.slice(0, k)];
}

module.exports = { roundOrder };
