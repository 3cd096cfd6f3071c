'use strict';
// The words of results/how-to-read.md: how to read every table of the report. Prose, kept
// apart from the code that writes the page (report/pages.js).

const HOW_TO_READ = `## How to read this

- **What each strategy costs** (the table that opens results.md). One row per strategy of the default run; every figure
  is a link to the study it comes from, and its column says which setting it was measured at. The *Reading* is derived
  from those figures by rules in code (analysis/index.js), not written by hand: a cost is named only where its interval
  excludes the baseline, "did not hold in a second run" where a \`repro --compare\` of the default run found the two
  estimates inconsistent, and "not safe" for a strategy that lost ids whatever it costs. Where two studies seem to
  disagree, the notes under the table name the settings that differ.
- **Duet** (runs whose table says *CPU/req in duet*, the default run among them). Each strategy ran at the same time
  as a fresh baseline process, both on one CPU, the load generator on the other; per 1-s window, the baseline's server
  CPU µs per request ÷ the strategy's. Both servers live through the same slow seconds of the machine, so the ratio
  barely moves from window to window. A window counts only when both servers were busy throughout and the load generator
  was under 85% of a core. The log ratios are averaged per block (a pair of fresh processes) and the interval is over
  blocks. *solo* req/s and p99 come from a short burst of each configuration alone and never feed the ratio. The
  \`none (A/A twin)\` row is a second \`none\` process measured exactly like a strategy: its interval must cover 100%.
- **Blocks and adjacent pairs** (sequential runs). A run is measured in blocks: in each block every configuration \
runs in a freshly started,
  server process, warmed up in unmeasured bursts until its cost per request stops falling, then several rounds of short
  bursts are taken. Bursts are ordered so that every strategy's
  sample sits right before or after a baseline sample, and the neighbours change from round to round.
- **[lo–hi]** is a **95% confidence interval**, always of the figure it stands beside. *req/s* is the geometric mean
  over blocks of each block's geometric mean, with a t-interval over the block means.
- **% of baseline [95% CI]** is throughput relative to the baseline configuration that differs only in strategy. Each
  sample is divided by the baseline sample it was paired with; the log ratios are averaged per block, and the \
interval is
  a t-interval over the block means with (blocks − 1) degrees of freedom, so the **server process is the unit**: what a
  restart changes (JIT decisions, heap layout) is inside the interval (two-level design, Kalibera & Jones 2013; Georges
  et al. 2007). It is not the quotient of the two req/s figures, which still carry drift the pairing removes.
- **Variance components** (one-way ANOVA of the pair log ratios by block) split the noise into *between blocks* (what a
  fresh process changes) and *within blocks* (burst to burst); F and p say whether the process effect is above the \
noise.
- **% of the baseline: CPU/req** is the same paired comparison of server CPU µs per request, turned like throughput
  (the baseline's CPU per request ÷ this one's; below 100% costs more), a second estimate less exposed to a busy
  machine. "Disagree" = it and the throughput ratio tell different stories (their intervals do not overlap).
- **Verdict.** "7.0% slower, significant" means the difference is unlikely to be noise (p < 0.05). "No significant
  difference" means this run cannot tell the two apart — not that they are equal. A strategy that lost or mixed up ids
  (other than the \`global\` control) gets **"context broken, cost not comparable"** instead of a cost; a configuration
  whose load generator used ≥ 85% of a core gets **no verdict**, only a warning (it measured the client).
- **Regime shifts.** When a baseline's series shifts level during a run (best single split, Welch test, Bonferroni over
  the splits tried, shift ≥ 10%), the report flags it and shows each ratio per regime.
- **Earlier design.** Runs marked *measured with the earlier design* (schema 1) kept one warm process per configuration
  and paired samples by round; their intervals do not include restarts.
- **Mismatches** = responses carrying *another* request's id: the context leaked between requests. **Lost** = responses
  carrying no id of ours. Both must be 0. \`global\` is a deliberately broken control (⚠) that must leak whenever
  requests interleave; it shows the check works. A ❌ on any other strategy is a real bug.
- **CPU µs/req** is the server's own CPU time (user + system, from its \`/__stats\`) per request served.
- **p99 ms** is the 99th-percentile latency reported by the load generator, median across samples; autocannon records
  latency in whole milliseconds, so "< 1" means under a millisecond.
- **\`ctxbench compare\`** is a gate that fails closed: exit 0 = every configuration shown not slower than the threshold
  (default 5%), 1 = a significant slowdown beyond it (Holm-corrected), 2 = inconclusive (with the blocks it would need).
- Numbers from other people's write-ups appear only under **Published references (not our measurements)**.`;

module.exports = { HOW_TO_READ };
