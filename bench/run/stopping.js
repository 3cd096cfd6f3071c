'use strict';
// When a run has measured enough: a pure function of what is known after a block, so it
// can be tested without a server.

// decide({ elapsedS, maxTimeS, nextBlockS, precision, ratios: [{ id, halfWidthPct, blocks }],
//          blocks, minBlocks })
//   -> { more, reason, reached, missing: [{ id, halfWidthPct, blocksNeeded }] }
// - fewer than minBlocks blocks: always more (the minimum is the design, not a budget).
// - without a precision target: no more after minBlocks.
// - with one: more while some ratio's 95% CI half-width (pp) is above the target and the
//   next block (nextBlockS, an estimate) still ends before maxTimeS since the run began;
//   maxTimeS is a deadline for the whole run, never overrun by a block started late.
// blocksNeeded projects the half-width shrinking with the square root of the number of
// blocks (blocks are the independent units of the interval): b * (hw / target)^2. A
// ratio without a half-width yet (too few blocks) is missing with blocksNeeded null.
// budgetS: a deadline no block may end after, before any minimum of blocks (a held-out
// resume's own time, bench/run/held-out.js).
function decide({
  elapsedS,
  maxTimeS = null,
  budgetS = null,
  nextBlockS = 0,
  precision = null,
  ratios = [],
  blocks,
  minBlocks,
}) {
  const missing = precision
    ? ratios
        .filter((r) => !(Number.isFinite(r.halfWidthPct) && r.halfWidthPct <= precision))
        .map((r) => ({
          id: r.id,
          halfWidthPct: Number.isFinite(r.halfWidthPct) ? r.halfWidthPct : null,
          blocksNeeded:
            Number.isFinite(r.halfWidthPct) && r.blocks > 0
              ? Math.ceil(r.blocks * (r.halfWidthPct / precision) ** 2)
              : null,
        }))
    : [];
  const reached = Boolean(precision) && missing.length === 0;
  if (budgetS !== null && elapsedS + nextBlockS > budgetS)
    return {
      more: false,
      reason: `time budget: another block (~${Math.round(nextBlockS)} s) would end after ${Math.round(budgetS)} s`,
      reached,
      missing,
    };
  if (blocks < minBlocks) return { more: true, reason: `minimum of ${minBlocks} blocks`, reached, missing };
  if (!precision) return { more: false, reason: `${blocks} blocks measured`, reached, missing };
  if (reached) return { more: false, reason: `every ratio within ±${precision} pp`, reached, missing };
  if (maxTimeS !== null && elapsedS + nextBlockS > maxTimeS) {
    return {
      more: false,
      reason: `time cap: another block (~${Math.round(nextBlockS)} s) would end after ${maxTimeS} s`,
      reached,
      missing,
    };
  }
  return { more: true, reason: `${missing.length} ratio(s) above ±${precision} pp`, reached, missing };
}

// nextBlockSeconds(blockSeconds): how long the next block may take, for the deadline. The
// longest block so far is not enough: deployment-f1's seventh block ran past every earlier
// one and its run ended 16 s past its 3,600-s cap (docs/how-it-measures.md, "Stops when
// precise"). So the longest plus the spread seen so far (longest − shortest).
function nextBlockSeconds(blockSeconds) {
  if (blockSeconds.length === 0) return 0;
  const longest = Math.max(...blockSeconds);
  return longest + (longest - Math.min(...blockSeconds));
}

module.exports = { decide, nextBlockSeconds };
