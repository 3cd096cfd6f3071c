'use strict';
// A run page's per-configuration detail, in the autocannon layout the seeds used.
const f = require('../../format');
const { configDetail, LATENCY_COLUMNS } = require('../../../analysis');

function detailSection(rows) {
  const withData = rows.map((r) => ({ ...r, detail: configDetail(r.config) })).filter((r) => r.detail);
  if (!withData.length) return '';
  const out = [
    '<details><summary>Per-configuration latency and throughput (autocannon layout)</summary>',
    '',
    'Latency: each column is the median, across rounds, of what autocannon reported for that round. ' +
      'Req/Sec and Bytes/Sec: the spread of the per-round averages across rounds ' +
      '(so 2.5% … Max describe round-to-round variation, not per-second variation).',
    '',
  ];
  const cols = LATENCY_COLUMNS;
  for (const { config: c, summary: s, detail: d } of withData) {
    const lat = d.latency;
    const body = [
      ['Latency (ms)', ...cols.map((k) => (k === 'avg' || k === 'stdev' ? f.num(lat[k]) : f.wholeMs(lat[k])))],
    ];
    if (d.rps) body.push(['Req/Sec', ...cols.map((k) => f.int(d.rps[k]))]);
    if (d.bytesPerSec) body.push(['Bytes/Sec', ...cols.map((k) => f.bytes(d.bytesPerSec[k]))]);
    const extra = [];
    if (f.isNum(d.rssMB)) extra.push(`RSS ${f.num(d.rssMB)} MB`);
    if (f.isNum(s.cpuUsPerRequest.median)) extra.push(`server CPU ${f.num(s.cpuUsPerRequest.median)} µs/request`);
    if (f.isNum(d.loadgenCpuMax))
      extra.push(`load generator CPU up to ${Math.round(d.loadgenCpuMax * 100)}% of a core`);
    if (f.isNum(d.requests)) extra.push(`${f.int(d.requests)} requests`);
    out.push(`**${f.code(c.id)}** — ${d.rounds} round(s)${extra.length ? `; ${extra.join(', ')}` : ''}`, '');
    out.push(
      f.table(['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'], body, [
        'l',
        'r',
        'r',
        'r',
        'r',
        'r',
        'r',
        'r',
      ]),
      '',
    );
  }
  out.push('</details>');
  return out.join('\n');
}

module.exports = { detailSection };
