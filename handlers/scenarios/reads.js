'use strict';
// Shared by the scenarios: the hops they cross and how a request reports its reads.

const immediate = () => new Promise((resolve) => setImmediate(resolve));
const timeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A scenario reads the context at several points; the request answers with ONE id: the
// first read that is not the id the request came in with (req.traceId, set on entry),
// else that id. So a single wrong read anywhere fails the whole request, and the client
// still classifies what comes back itself (own id, another request's id, or neither).
// The label of the failing read is left on req for the route's x-ctxbench-failed-read.
// reads: [[label, id], ...]
function firstWrong(req, reads) {
  for (const [label, id] of reads) {
    if (id !== req.traceId) {
      req.ctxbenchFailedRead = label;
      return id;
    }
  }
  return reads[0][1];
}

// A library scenario as users write it, and its `-bound` twin with the callbacks passed
// through the strategy's bind (remedy 'pool'), which needs what the plain one needs and
// has the same control explanation. twin: { describe, bound: 'the callbacks were' (what
// was bound, for the explanation of a strategy that still fails), explain? }.
function withBound(plain, { bound, explain = {}, ...twin }) {
  return [plain, {
    name: `${plain.name}-bound`,
    ...(plain.needs && { needs: plain.needs }),
    remedy: 'pool',
    control: plain.control,
    ...twin,
    explain: { ...explain, '*': `${bound} bound but still did not see the id` },
  }];
}

module.exports = { immediate, timeout, firstWrong, withBound };
