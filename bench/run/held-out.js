'use strict';
// The held-out resume of a model study (issue 61): its later blocks measure only what can
// move a strategy–runtime pair's word (analysis/model.js): the pair's held-out points that
// cannot tell yet, the fitted points its line is drawn through in the same blocks (no new
// fitted configurations), their `none` partners, and an A/A point at the reference
// configuration (a margin's third term). A pair is taken where the page's projection says
// its word is nearest: within the blocks the resume goes on to.
const {
  analyzeModel,
  pointKey,
  REFERENCE,
  CLAIM_MIN_POINTS,
  CLAIM_SHARE_WITHIN,
  isAaTwin,
} = require('../../analysis/model');
const { deriveConfig, AA_ARM } = require('./matrix');

const JUDGED = ['within', 'beyond', 'cannot tell'];

// Why a pair is not modelled, in short (analysis/model.js wordOf gives it as data; the page
// says it in full, report/words.js): the held-out points its line is wrong at, or no line.
const notModelledBrief = (x) =>
  x?.code === 'line-wrong' ? `its line is wrong at ${x.points.map((p) => p.point).join(', ')}` : 'no line';

// One pair's case: the blocks in all after which its word would be decided if each open
// point's gap held (the projection of the page): 'claimed' once enough of them are within,
// 'not modelled' once one is beyond, whichever comes first; or why blocks cannot move it.
// -> { projected, toward, open } | { why }
function pairCase(s) {
  if (s.word === 'claimed') return { why: 'claimed already' };
  if (s.word === 'not modelled')
    return { why: `not modelled (${notModelledBrief(s.notModelled)}): no block undoes it` };
  const held = s.points.filter((p) => p.role === 'held-out');
  const judged = held.filter((p) => JUDGED.includes(p.verdict.outcome));
  if (judged.length < CLAIM_MIN_POINTS)
    return { why: `${judged.length} held-out point(s) judgeable, under the ${CLAIM_MIN_POINTS} a claim needs` };
  const open = judged.filter((p) => p.verdict.outcome === 'cannot tell');
  const need = Math.ceil(CLAIM_SHARE_WITHIN * judged.length) - (judged.length - open.length);
  const toward = (outcome) =>
    open
      .map((p) => p.gapPp?.agreement?.toDecide)
      .filter((t) => t?.outcome === outcome && Number.isInteger(t.blocks))
      .map((t) => t.blocks)
      .sort((a, b) => a - b);
  const within = toward('within');
  const beyond = toward('beyond');
  const options = [
    ...(within.length >= need ? [{ projected: within[need - 1], toward: 'claimed' }] : []),
    ...(beyond.length ? [{ projected: beyond[0], toward: 'not modelled' }] : []),
  ];
  if (!options.length) return { why: "its open points sit on their margin's edge or too few move toward within" };
  return { ...options.reduce((a, b) => (b.projected < a.projected ? b : a)), open };
}

// run (a model study's run JSON), toBlocks (the blocks in all the resume goes on to) ->
// { pairs: [{ runtime, strategy, projected, toward, points }], left: [{ runtime, strategy, why }],
//   keep: Set(config ids measured from now on), twins: [new A/A configs] }.
// Throws one line for a run that is no model study.
function heldOutPlan(run, toBlocks) {
  const model = analyzeModel(run);
  if (!model) throw new Error('not a model study: no configuration has a fit or held-out role');
  const baseline = run.settings?.baseline;
  const pairs = [];
  const left = [];
  const byId = new Map(run.configs.map((c) => [c.id, c]));
  for (const rt of model.runtimes)
    for (const s of rt.strategies) {
      const c = pairCase(s);
      // Resting is for good (bench/run/resume.js): a pair an earlier held-out resume left out stays
      // out (its line's points or open ones rest; a point already judged may rest).
      const rests = s.points
        .filter((p) => (p.role === 'fit' && p.measured) || p.verdict.outcome === 'cannot tell')
        .map((p) => byId.get(p.id)?.restingFrom)
        .find(Number.isInteger);
      if (c.why) left.push({ runtime: rt.runtime, strategy: s.strategy, why: c.why });
      else if (rests !== undefined)
        left.push({ runtime: rt.runtime, strategy: s.strategy, why: `resting since block ${rests + 1}` });
      else if (c.projected > toBlocks)
        left.push({
          runtime: rt.runtime,
          strategy: s.strategy,
          why: `its word projected at ${c.projected} blocks, past ${toBlocks}`,
        });
      else
        pairs.push({
          runtime: rt.runtime,
          strategy: s.strategy,
          projected: c.projected,
          toward: c.toward,
          points: c.open,
        });
    }
  const runtimeOf = (c) => c.nodeLabel ?? c.node;
  const keep = new Set();
  const points = new Set();
  for (const p of pairs) {
    const open = new Set(p.points.map((x) => x.id));
    // Its fitted points that are in its line (a point never counted is not), its open ones.
    const mine = run.configs.filter(
      (c) =>
        runtimeOf(c) === p.runtime &&
        (c.arm ?? c.strategy) === p.strategy &&
        c.restingFrom === undefined &&
        ((c.role === 'fit' && c.samples.some((w) => w.kind === 'window' && w.counted)) || open.has(c.id)),
    );
    for (const c of mine) {
      keep.add(c.id);
      points.add(pointKey(c));
    }
  }
  const twins = [];
  for (const runtime of new Set(pairs.map((p) => p.runtime))) {
    const refKey = pointKey({ ...REFERENCE, nodeLabel: runtime });
    points.add(refKey);
    const base = run.configs.find(
      (c) => c.strategy === baseline && !isAaTwin(c) && runtimeOf(c) === runtime && pointKey(c) === refKey,
    );
    if (!base) throw new Error(`no ${baseline} configuration at the reference point on ${runtime}: no A/A point`);
    const twin = run.configs.find((c) => isAaTwin(c) && runtimeOf(c) === runtime && pointKey(c) === refKey);
    if (twin) keep.add(twin.id);
    else {
      // Not a point of the fit nor a held-out one: the twin carries no role.
      const made = deriveConfig(base, { id: `${base.id}/aa`, arm: AA_ARM });
      delete made.role;
      twins.push(made);
    }
  }
  // The `none` partners of every point measured.
  for (const c of run.configs)
    if (c.strategy === baseline && !isAaTwin(c) && points.has(pointKey(c)) && c.restingFrom === undefined)
      keep.add(c.id);
  for (const t of twins) keep.add(t.id);
  return { pairs, left, keep, twins };
}

module.exports = { heldOutPlan, pairCase };
