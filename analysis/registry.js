'use strict';
// What the analysis (and through it the report) knows of the app: a strategy's registry
// facts, and how the integrity scenarios are grouped. One lookup for every reader: a
// strategy a results file names that this tree does not know (another version's, a
// team's strategy file not loaded here) reads as {}: not the control, carrying context.
const strategies = require('../context');
const { LIBRARY_SCENARIOS } = require('../handlers/scenarios');

function strategyInfo(name) {
  try {
    return strategies.info(name) || {};
  } catch {
    return {};
  }
}

// The deliberately broken control (`global`), as the registry marks it.
const isControl = (name) => Boolean(strategyInfo(name).control);
// `none` carries no context by design: its answers are "lost" and that is not a defect.
const carriesContext = (name) => strategyInfo(name).carriesContext !== false;

// The everyday propagation patterns: a strategy that fails one of these fails in
// everyday code (the summary's Keeps-the-id column).
const PROPAGATION = /^(chain-|fanout$|thenable$|emitter$|batch$|nested$|keepalive$|soak$)/;

// Each scenario that loses the id without help, and the scenario that applies the remedy.
const REMEDY_PAIRS = [
  ['body', 'body-bound'],
  ['emitter', 'emitter-bound'],
  ['pool', 'pool-bound'],
  ...LIBRARY_SCENARIOS.filter((sc) => sc.remedy).map((sc) => [sc.name.replace(/-bound$/, ''), sc.name]),
];

module.exports = { strategyInfo, isControl, carriesContext, PROPAGATION, REMEDY_PAIRS };
