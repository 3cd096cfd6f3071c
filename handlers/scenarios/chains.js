'use strict';
// Scenario 1, chains: the same call chain GET / runs (handlers/chain.js), at depth 8,
// once per hop kind. The answer is the id read at the deepest level, as for GET /.
const { makeChain } = require('../chain');
const { firstWrong } = require('./reads');

const DEPTH = 8;
const HOPS = ['await', 'nexttick', 'immediate', 'timeout', 'mixed'];

function create({ strategy }) {
  const scenarios = {};
  for (const hop of HOPS) {
    const chain = makeChain({ strategy, hop, log: undefined });
    scenarios[`chain-${hop}`] = async (req) => firstWrong(req, [['at the deepest level', await chain(req, DEPTH)]]);
  }
  return scenarios;
}

module.exports = { create, DEPTH };
