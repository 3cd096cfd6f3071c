'use strict';
// A run page's environment (machine, runtime, noise) and settings lines.
const f = require('../../format');
const { nodeLabel: versionLabel } = require('../../../lib/node-versions');
const { warmupCounts } = require('../../../analysis');
const { uniq } = require('./common');
const { pointName } = require('../../../analysis/model');

// A sitting on another CPU than the run began on: its blocks are in that CPU's µs.
function machineChange(run, resume) {
  const m = resume.machine;
  const first = run.environment || {};
  if (!m || (m.cpuModel === first.cpuModel && m.cores === first.cores)) return '';
  return (
    `, **on another machine**: ${m.cpuModel ?? '?'} (${m.cores ?? '?'} cores), where the run began on ` +
    `${first.cpuModel ?? '?'} (${first.cores ?? '?'} cores)`
  );
}

function noiseLines(noise) {
  if (!noise || typeof noise !== 'object') return [];
  const parts = [];
  const w = noise.window;
  if (w && typeof w === 'object') {
    const bits = [];
    if (f.isNum(w.stealPct)) bits.push(`CPU steal ${w.stealPct.toFixed(1)}%`);
    if (f.isNum(w.busyPct)) bits.push(`CPU busy ${w.busyPct.toFixed(0)}% (all processes, ours included)`);
    if (f.isNum(w.seconds)) bits.push(`over ${Math.round(w.seconds)} s`);
    if (bits.length) parts.push(bits.join(', '));
  }
  const la = (x) => (x && Array.isArray(x.loadavg) ? x.loadavg.map((v) => v.toFixed(2)).join(' ') : null);
  if (la(noise.before) || la(noise.after))
    parts.push(
      `load average ${la(noise.before) || '?'} before, ${la(noise.after) || '?'} after` +
        (noise.loadNotJudged ? ` (not judged: ${noise.loadNotJudged})` : ''),
    );
  const mhz = (x) =>
    x && Array.isArray(x.cpuMHz) && x.cpuMHz.length
      ? Math.round(x.cpuMHz.reduce((a, b) => a + b, 0) / x.cpuMHz.length)
      : null;
  if (mhz(noise.before) || mhz(noise.after))
    parts.push(`mean CPU clock ${mhz(noise.before) || '?'} → ${mhz(noise.after) || '?'} MHz`);
  if (!parts.length && !Array.isArray(noise.flags)) {
    // Unknown shape: show its scalar fields rather than nothing.
    for (const [k, v] of Object.entries(noise)) if (v !== null && typeof v !== 'object') parts.push(`${k} ${v}`);
  }
  const lines = [];
  if (parts.length) lines.push(`- **Noise:** ${parts.join('; ')}`);
  if (Array.isArray(noise.flags)) {
    for (const flag of noise.flags) lines.push(`  - ⚠ ${flag}`);
    if (noise.flags.length === 0 && parts.length) lines[0] += ' — no noise flags raised';
  }
  return lines;
}

// The points of the configurations a resume added, as DEPTH=… HOP=…: what a reader needs
// to know which rows have fewer blocks than the run.
function joinedPoints(run, ids) {
  const added = new Set(ids);
  const points = run.configs.filter((c) => added.has(c.id)).map(pointName);
  return uniq(points).join(', ');
}

// The runner's Node.js, the versions the servers ran on, and which AsyncLocalStorage each had.
function nodeLineOf(e, configs) {
  const measured = uniq(configs.map((c) => c.node).filter(Boolean));
  const impl = (c) => (c.acf ? 'AsyncContextFrame' : 'async_hooks');
  const acf = uniq(configs.filter((c) => typeof c.acf === 'boolean').map((c) => `${c.node}: ${impl(c)}`));
  let nodeLine = `- **Node.js:** ${e.node || '?'}`;
  if (measured.length && !(measured.length === 1 && measured[0] === e.node))
    nodeLine += ` (runner); servers ran on ${measured.map((v) => versionLabel(v, e.date)).join(', ')}`;
  if (acf.length === 1)
    nodeLine += ` — AsyncLocalStorage implementation: ${acf[0].split(': ')[1]} (detected at run time)`;
  else if (acf.length > 1) nodeLine += ` — AsyncLocalStorage implementation (detected at run time): ${acf.join(', ')}`;
  return nodeLine;
}

// A run that went on with --resume: each sitting's commit and the block it went on from.
function resumeLines(run) {
  const lines = [];
  for (const r of run.resumes || []) {
    lines.push(
      `- **Resumed:** ${String(r.at || '?')
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}, from block ${r.fromBlock + 1} ` +
        `(${r.fromBlock} complete block${r.fromBlock === 1 ? '' : 's'} kept, ` +
        `${r.droppedSamples} sample${r.droppedSamples === 1 ? '' : 's'} of an unfinished one dropped; ` +
        `the run was ${r.status}), ctxbench ${r.commit ? f.code(r.commit) : 'not from a checkout'}` +
        `${r.dirty ? ' (with uncommitted changes)' : ''}, Node ${r.node}${machineChange(run, r)}` +
        (r.added?.length
          ? `; ${r.added.length} configuration${r.added.length === 1 ? '' : 's'} the preset gained since joined ` +
            `from this block on (${joinedPoints(run, r.added)})`
          : ''),
    );
  }
  return lines;
}

function environmentSection(run) {
  const e = run.environment || {};
  const configs = run.configs || [];
  const lines = [f.heading(3, 'Environment'), ''];
  const os = [e.os || e.platform, e.arch].filter(Boolean).join(' ');
  if (os || e.kernel)
    lines.push(`- **OS:** ${os || '?'}${e.kernel && !String(os).includes(e.kernel) ? `, kernel ${e.kernel}` : ''}`);
  if (e.cpuModel || e.cores) {
    lines.push(
      `- **CPU:** ` +
        `${e.cpuModel || '?'}${f.isNum(e.cores) ? ` — ${e.cores} core${e.cores === 1 ? '' : 's'} available` : ''}` +
        `${e.cpuFrequency ? `, ${e.cpuFrequency}` : ''}`,
    );
  }
  if (f.isNum(e.memoryBytes)) lines.push(`- **Memory:** ${f.gib(e.memoryBytes)}`);
  lines.push(nodeLineOf(e, configs));
  if (e.date)
    lines.push(
      `- **Date:** ${String(e.date)
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
        .replace(/Z$/, ' UTC')}`,
    );
  if (e.commit || e.dirty !== undefined) {
    lines.push(
      `- **ctxbench commit:** ` +
        (e.commit
          ? f.code(e.commit)
          : e.ctxbenchVersion
            ? `none (installed package ${f.code(e.ctxbenchVersion)})`
            : 'unknown') +
        `${e.dirty ? ' (with uncommitted changes)' : ''}`,
    );
  }
  lines.push(...resumeLines(run));
  if (e.taskset === true)
    lines.push('- **CPU pinning:** server and load generator pinned to different CPUs with `taskset`');
  else if (e.taskset === false)
    lines.push(
      '- **CPU pinning:** none (`taskset` unavailable or a single CPU): server and load generator shared CPUs',
    );
  const fp = e.fingerprint;
  if (fp && typeof fp === 'object') {
    lines.push(
      `- **Machine-speed fingerprint:** ${f.num(fp.cpuUsPerRequest)} µs of server CPU per request, ` +
        `${f.int(fp.rps)} req/s` +
        ` (${fp.what || '`STRATEGY=none DEPTH=1 HOP=sync`'}, a short unmeasured burst at the start): runs ` +
        `whose fingerprints differ ran on differently fast machines`,
    );
  } else if (run.kind === 'app') {
    lines.push("- **Machine-speed fingerprint:** not taken (`ctxbench app` measures your service, not ctxbench's app)");
  } else if ((run.schema || 1) >= 2) {
    lines.push('- **Machine-speed fingerprint:** not recorded (remote targets)');
  }
  lines.push(...noiseLines(e.noise));
  return lines.join('\n');
}

// The warm-up as it was done: runs with the steady rule (bench/measure/warmup.js) record each
// process's bursts; earlier runs had one fixed warm-up.
function warmupText(run) {
  const s = run.settings || {};
  if (!f.isNum(s.warmup)) return s.warmup;
  const w = warmupCounts(run);
  if (!w) return `${s.warmup} s`;
  return (
    `bursts of ${s.warmup} s until the cost per request stops falling: ${w.min}–${w.max} per process (median ` +
    `${w.median})`
  );
}

// The blocks the run measured beside the number asked: with a precision target the number
// asked is a minimum (the run goes on until every ratio is that precise or the time is up),
// and a stopped run measures fewer. Measured: the blocks its samples came from (else what the
// precision record says).
function blocksText(run) {
  const asked = run.settings?.blocks;
  if (!f.isNum(asked)) return null;
  const seen = new Set((run.configs || []).flatMap((c) => (c.samples || []).map((x) => x.block)));
  seen.delete(undefined);
  const measured = seen.size || run.precision?.blocks || null;
  if (!f.isNum(measured)) return String(asked);
  if (f.isNum(run.settings.precision) && measured >= asked) return `${measured} measured (at least ${asked} asked)`;
  return measured === asked ? String(asked) : `${measured} measured (${asked} asked)`;
}

function settingsSection(run) {
  const s = run.settings || {};
  const list = (x) => (Array.isArray(x) ? x.join(', ') : x);
  // A preset that lists its configurations (the model studies) measures those points, not
  // the product of its depths and hops: the values that occur in the list are what it ran.
  const points = Array.isArray(s.configs) ? s.configs : null;
  const occurring = (value, fallback) =>
    points
      ? [...new Set(points.map(value).filter((v) => v !== undefined))].sort((a, b) =>
          typeof a === 'number' ? a - b : 0,
        )
      : fallback;
  const stores = occurring((c) => c.stores ?? 0, []);
  const items = [
    ['preset', s.preset],
    ['driver', s.driver],
    ['connections', s.connections],
    ['pipelining', s.pipelining],
    ['duration', f.isNum(s.duration) ? `${s.duration} s per sample` : s.duration],
    ['warmup', warmupText(run)],
    ['rounds', f.isNum(s.rounds) ? `${s.rounds}, interleaved` : s.rounds],
    ['baseline', s.baseline ? f.code(s.baseline) : null],
    ['strategies', list(s.strategies)],
    ['configurations', points ? `${points.length}, listed by the preset` : null],
    ['depths', list(occurring((c) => c.depth, s.depths))],
    ['hops', list(occurring((c) => c.hop, s.hops))],
    ['stores', stores.some(Boolean) ? list(stores) : null],
    ['frameworks', list(occurring((c) => c.framework, s.frameworks))],
    ['node', list(s.node)],
    ['acf', s.acf],
  ];
  // Shown elsewhere (title, why) or only bookkeeping.
  const known = new Set([
    ...items.map(([k]) => k),
    'title',
    'why',
    'basedOn',
    'quick',
    'configs',
    'targets',
    'maxTime',
    'methodWhy',
    'precision',
    'blocks',
  ]);
  // Said once each: the precision target with its time limit, and the blocks as measured.
  if (f.isNum(s.precision)) items.push(['precision', `±${s.precision} pp within ${s.maxTime} s`]);
  items.push(['blocks', blocksText(run)]);
  for (const [k, v] of Object.entries(s)) {
    // The method with the reason the run chose it (runs since the method follows the measurement).
    if (k === 'method' && s.methodWhy) items.push([k, `${v} (${s.methodWhy})`]);
    else if (!known.has(k) && v !== null && v !== undefined && typeof v !== 'object') items.push([k, v]);
    else if (!known.has(k) && Array.isArray(v) && v.every((x) => typeof x !== 'object')) items.push([k, v.join(', ')]);
  }
  // What measuring learned that the line has always shown (in runs before the plan was
  // frozen it stood last among the settings).
  if (typeof run.learned?.postgres === 'string') items.push(['postgres', run.learned.postgres]);
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (!shown.length) return '';
  return `**Settings:** ${shown.map(([k, v]) => `${k} ${v}`).join(' · ')}`;
}

module.exports = { environmentSection, settingsSection };
