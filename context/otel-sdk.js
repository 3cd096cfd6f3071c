'use strict';
// The OpenTelemetry SDK set-up shared by otel-selective and otel-full. They differ only
// in which instrumentations they register; everything else is here. The rows as teams
// deploy them (otel-sdk-otlp, otel-sdk-otlp-10) configure nothing of the below in code
// and share only the request context and the span check: createOtlpStrategy.
//
// - NodeSDK, always-on sampling, W3C trace-context propagation (a request's server span
//   takes the trace id of its `traceparent`), the SDK's AsyncLocalStorage context manager.
// - Tracing only: no metric reader and no log processor (NodeSDK would otherwise default
//   both to OTLP exporters on localhost).
// - The exporter is OTEL_EXPORTER (servers/config.js):
//     memory            BatchSpanProcessor -> InMemorySpanExporter that keeps only the most
//                       recent MEMORY_KEEP spans (older ones are discarded after each
//                       export), so memory stays bounded however long a run lasts;
//     none              no exporter: spans are created, sampled and ended, then a no-op
//                       processor counts and forgets them;
//     otlp-unreachable  BatchSpanProcessor -> OTLP/HTTP (JSON) to UNREACHABLE_URL, a
//                       loopback port where nothing listens: every export fails after
//                       the exporter's retries and the queue overflows, which is what
//                       the platformatic study's set-up did (it configured no exporter).
//   BatchSpanProcessor settings are the SDK defaults (queue 2048, batch 512, 5 s delay),
//   tunable with the standard OTEL_BSP_* variables.
// - The SDK starts in start(config), called while the strategy loads, i.e. before the
//   framework module is required: instrumentations patch modules as they are required.
//
// The request id lives in a context key on the active OpenTelemetry context, which the
// instrumentations' spans share; the chain reads it back from there.
//
// Traces, not only ids: a span made for one request must sit in that request's trace.
// The pg and undici client spans name the request they were made for (pg: the query's
// parameter, with the pg instrumentation's enhancedDatabaseReporting; undici: `?id=` in
// the URL, which HOP=http and the scenarios add); run(id) records which trace the
// request's server span opened. A span-check processor counts, per ended client span
// naming a request: checked, in another request's trace (parented into another
// request), in a trace of no request (detached). /__stats: spansChecked,
// spansForeignTrace, spansDetached. Bench only, with CTXBENCH_SPAN_CHECK=1 (which
// `ctxbench integrity` sets): run() then does bookkeeping that is not the thing a run
// measures, so the servers of a run go without it.
const { context, createContextKey, trace, SpanKind } = require('@opentelemetry/api');
const { requestNamedBy } = require('../handlers/scenarios/reads');

const ID = createContextKey('ctxbench.id');
const SPAN_CHECK = process.env.CTXBENCH_SPAN_CHECK === '1';
// Requests remembered for the span check (id -> its trace); the oldest go first.
const OWNERS_KEEP = 20000;
// pg and undici options shared by both flavours (see the span check above).
const PG_CONFIG = { enhancedDatabaseReporting: true };
const MEMORY_KEEP = 2048;
const UNREACHABLE_URL = 'http://127.0.0.1:4318/v1/traces';

// One SDK per process: the strategy registry loads one strategy per process.
let active;

function counters() {
  return { ended: 0, exported: 0, failed: 0, queueDropped: 0, checked: 0, foreign: 0, detached: 0 };
}

// Wraps a SpanExporter to count the spans it accepted and the ones it failed to send.
function countingExporter(exporter, counts, SUCCESS) {
  return {
    export(spans, done) {
      const n = spans.length;
      exporter.export(spans, (result) => {
        if (result.code === SUCCESS) counts.exported += n;
        else counts.failed += n;
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => (exporter.forceFlush ? exporter.forceFlush() : Promise.resolve()),
  };
}

function memoryExporter() {
  const { InMemorySpanExporter } = require('@opentelemetry/sdk-trace-base');
  class BoundedInMemorySpanExporter extends InMemorySpanExporter {
    export(spans, done) {
      super.export(spans, done);
      const kept = this.getFinishedSpans();
      if (kept.length > MEMORY_KEEP) kept.splice(0, kept.length - MEMORY_KEEP);
    }
  }
  return new BoundedInMemorySpanExporter();
}

// A BatchSpanProcessor that also counts the spans it received and the ones it dropped
// because its queue was full (the SDK only logs those). It reads two fields of the
// SDK's class; dropCounting() says whether they are there in the installed version.
function batchProcessor(exporter, counts) {
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  class CountingBatchSpanProcessor extends BatchSpanProcessor {
    _addToBuffer(span) {
      counts.ended++;
      if (this._finishedSpans.length >= this._maxQueueSize) counts.queueDropped++;
      super._addToBuffer(span);
    }
  }
  const processor = new CountingBatchSpanProcessor(exporter);
  processor.dropCounting = () =>
    typeof BatchSpanProcessor.prototype._addToBuffer === 'function' &&
    Array.isArray(processor._finishedSpans) &&
    typeof processor._maxQueueSize === 'number';
  return processor;
}

// id -> trace id of the request's server span, and the set of those traces.
const owners = new Map();
const requestTraces = new Map();

function remember(map, key, value) {
  map.set(key, value);
  if (map.size > OWNERS_KEEP) map.delete(map.keys().next().value);
}

function spanCheckProcessor(counts) {
  return {
    onStart() {},
    onEnd(span) {
      if (span.kind !== SpanKind.CLIENT) return;
      const owner = requestNamedBy(span.attributes || {});
      if (!owner) return;
      const expected = owners.get(owner);
      if (!expected) return; // a request from before the span check remembers
      counts.checked++;
      const traceId = span.spanContext().traceId;
      if (traceId === expected) return;
      if (requestTraces.has(traceId)) counts.foreign++;
      else counts.detached++;
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

function countOnlyProcessor(counts) {
  return {
    onStart() {},
    onEnd() {
      counts.ended++;
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
    dropCounting: () => true,
  };
}

// Starts the SDK with the given instrumentations and OTEL_EXPORTER choice.
function startSdk(exporterName, instrumentations) {
  if (active) throw new Error('the OpenTelemetry SDK is already started in this process');
  const { NodeSDK, core, tracing } = require('@opentelemetry/sdk-node');
  const counts = counters();
  let memory;
  let processor;
  if (exporterName === 'memory') {
    memory = memoryExporter();
    processor = batchProcessor(countingExporter(memory, counts, core.ExportResultCode.SUCCESS), counts);
  } else if (exporterName === 'otlp-unreachable') {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
    const otlp = new OTLPTraceExporter({ url: UNREACHABLE_URL });
    processor = batchProcessor(countingExporter(otlp, counts, core.ExportResultCode.SUCCESS), counts);
  } else if (exporterName === 'none') {
    processor = countOnlyProcessor(counts);
  } else {
    throw new Error(
      `OTEL_EXPORTER=${JSON.stringify(exporterName)} is not valid; expected one of: memory, none, otlp-unreachable`,
    );
  }

  const sdk = new NodeSDK({
    serviceName: 'ctxbench',
    sampler: new tracing.AlwaysOnSampler(),
    textMapPropagator: new core.W3CTraceContextPropagator(),
    spanProcessors: SPAN_CHECK ? [spanCheckProcessor(counts), processor] : [processor],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
  active = { sdk, processor, memory, counts, exporterName };
  return active;
}

// What every OpenTelemetry SDK strategy shares: the id in a context key on the active
// context, and under the span check, run() notes which trace each request's server span
// opened (the span-check processor judges client spans against it).
const requestContext = {
  run: SPAN_CHECK
    ? (id, fn) => {
        const span = trace.getActiveSpan();
        if (span) {
          const traceId = span.spanContext().traceId;
          remember(owners, String(id), traceId);
          remember(requestTraces, traceId, true);
        }
        return context.with(context.active().setValue(ID, id), fn);
      }
    : (id, fn) => context.with(context.active().setValue(ID, id), fn),
  current: () => context.active().getValue(ID),
  bind: (fn) => context.bind(context.active(), fn),
};

// The span check's counts for /__stats (only under CTXBENCH_SPAN_CHECK=1).
const spanCheckStats = (counts) =>
  SPAN_CHECK ? { spansChecked: counts.checked, spansForeignTrace: counts.foreign, spansDetached: counts.detached } : {};

// The strategy module for one flavour. instrumentationsFor(framework) returns the
// instrumentation instances to register (required lazily, inside the call).
function createOtelStrategy(strategyName, instrumentationsFor) {
  return {
    start(config) {
      const framework = config.framework || 'express';
      const instrumentations = instrumentationsFor(framework);
      if (!instrumentations) {
        throw new Error(`${strategyName} knows no OpenTelemetry instrumentation for FRAMEWORK=${framework}`);
      }
      startSdk(config.otelExporter || 'memory', instrumentations);
    },
    ...requestContext,
    // Merged into /__stats; read only when /__stats is asked for.
    stats() {
      if (!active) return {};
      const { counts, processor, exporterName } = active;
      return {
        otelExporter: exporterName,
        spansEnded: counts.ended,
        spansExported: counts.exported,
        spansDropped: processor.dropCounting() ? counts.queueDropped + counts.failed : null,
        ...spanCheckStats(counts),
      };
    },
  };
}

// A row as teams deploy it: NodeSDK with getNodeAutoInstrumentations() and nothing set in
// code, so the SDK builds everything from the environment and its defaults (parent-based
// always-on sampler, BatchSpanProcessor, metrics and logs, all OTLP http/protobuf). The
// environment is the row's own: every inherited OTEL_* variable is dropped (a stray
// sampler or protocol in the shell would change what the row runs), then the endpoint,
// ctxbench's sink, and rowEnv (a sampled row's sampler) are set.
function createOtlpStrategy(strategyName, rowEnv = {}) {
  return {
    start(config) {
      if (active) throw new Error('the OpenTelemetry SDK is already started in this process');
      if (!config.sinkUrl) throw new Error(`${strategyName} needs SINK_URL, the local OTLP receiver`);
      for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
      Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: config.sinkUrl, ...rowEnv });
      const { NodeSDK } = require('@opentelemetry/sdk-node');
      const { getNodeAutoInstrumentations } = require('@opentelemetry/auto-instrumentations-node');
      const counts = counters();
      const sdk = new NodeSDK({
        instrumentations: [getNodeAutoInstrumentations()],
        // The span check (integrity only) goes before the processors NodeSDK would make.
        ...(SPAN_CHECK && { spanProcessors: [spanCheckProcessor(counts), ...sdkSpanProcessors()] }),
      });
      sdk.start();
      active = { sdk, counts, exporterName: 'otlp' };
    },
    ...requestContext,
    stats: () => (active ? { otelExporter: 'otlp', ...spanCheckStats(active.counts) } : {}),
  };
}

// The span processors NodeSDK makes from the environment when given none, by its own
// function (not exported from its index): the span check adds one beside them.
function sdkSpanProcessors() {
  const { getSpanProcessorsFromEnv } = require('@opentelemetry/sdk-node/build/src/utils');
  if (typeof getSpanProcessorsFromEnv !== 'function')
    throw new Error('the span check needs getSpanProcessorsFromEnv in @opentelemetry/sdk-node/build/src/utils');
  return getSpanProcessorsFromEnv();
}

// For tests and debugging: the spans the memory exporter still holds (most recent last),
// and a flush of the span processor.
function recentSpans() {
  return active && active.memory ? active.memory.getFinishedSpans().slice() : [];
}

function forceFlush() {
  return active?.processor ? active.processor.forceFlush() : Promise.resolve();
}

// The client instrumentations of the I/O ctxbench does (HOP=pg, HOP=http, the pg and
// undici scenarios), for otel-selective; otel-full gets them from its bundle.
function ioInstrumentations() {
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici');
  return [new PgInstrumentation(PG_CONFIG), new UndiciInstrumentation()];
}

module.exports = {
  createOtelStrategy,
  createOtlpStrategy,
  ioInstrumentations,
  recentSpans,
  forceFlush,
  ID,
  MEMORY_KEEP,
  UNREACHABLE_URL,
  PG_CONFIG,
};
