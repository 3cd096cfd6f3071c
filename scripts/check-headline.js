'use strict';
// `node scripts/check-headline.js [--root DIR]`: the headline of the committed results
// (DIR/results/*.json, default the repository) never contradicts itself (report/headline-check.js,
// the check `ctxbench report` refuses to write past), and README.md's answer block is what
// the report would write from them. Writes nothing; one line per failure, exit 1. .ci/run
// runs it over the committed results, which tests never read (test/report-headline.test.js
// runs it over fixtures).
const fs = require('node:fs');
const path = require('node:path');
const { readResults, orderResults, answerFor } = require('../report');
const { strategySummary } = require('../analysis');
const { contradictions } = require('../report/headline-check');
const { currentBlock } = require('../report/answer');

function check(root) {
  const resultsDir = path.join(root, 'results');
  const results = orderResults(readResults(resultsDir)).map((r) => ({ ...r, name: path.basename(r.file, '.json') }));
  const summary = strategySummary(results);
  if (!summary) return ['results: no default run, so no headline to check'];
  const out = contradictions(summary).map((x) => `headline: ${x}`);
  const readme = path.join(root, 'README.md');
  const block = fs.existsSync(readme) ? currentBlock(fs.readFileSync(readme, 'utf8')) : null;
  const expected = answerFor(summary, { resultsDir, out: path.join(root, 'results.md') });
  if (block === null) out.push('README.md: no answer block (<!-- ctxbench:answer:start --> … end -->)');
  else if (block !== expected) out.push('README.md: the answer block differs from the headline; run `ctxbench report`');
  return out;
}

if (require.main === module)
  require('./check-main').runCheck('check-headline', check, {
    flag: '--root',
    ok: 'the headline is consistent and README.md has its answer',
  });

module.exports = { check };
