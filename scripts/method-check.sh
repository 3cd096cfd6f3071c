#!/bin/bash
# The method check of the cost model (docs/model.md, "The method check"): the model's
# reference point measured with the duet (the method its lines are fitted from) and with
# the pair at two fixed rates, the two runs' blocks interleaved in time (one block each in
# turn after the first three), so that each pair block sits beside its duet block: 8 each,
# as committed. About 35 minutes on 2 cores; nothing else may run. Then `ctxbench report` puts the check on
# the model page (results/model.md, "The method check"), read from these two files.
set -euo pipefail
cd "$(dirname "$0")/.."
STRATEGIES=none,als,otel,cls-rtracer,cls-hooked,datadog
DUET=${DUET:-results/runs/method-check-duet.json}
PAIR=${PAIR:-results/runs/method-check-pair.json}
POINT=(--strategies "$STRATEGIES" --depths 8 --hops immediate --node 24 --aa --report none)
node bin/ctxbench.js run --method duet "${POINT[@]}" --blocks 3 --out "$DUET"
node bin/ctxbench.js run --method pair --rate 1000,3000 "${POINT[@]}" --blocks 3 --out "$PAIR"
for n in 4 5 6 7 8; do
  node bin/ctxbench.js run --resume "$DUET" --blocks "$n" --report none
  node bin/ctxbench.js run --resume "$PAIR" --blocks "$n" --report none
done
