'use strict';
// Where a request's id comes from. Every accepted value is matched whole against a
// strict pattern, so nothing a client sends is reflected unless it is plainly an id:
// no control characters, no quotes that could break out of a log line, bounded length.
const { randomUUID } = require('node:crypto');

// TRACE_ID/SPAN_ID;o=OPTIONS, span id decimal (App Engine's format).
const CLOUD_TRACE = /^([0-9a-f]{32})\/\d{1,20}(?:;o=\d)?$/i;
// version-traceid-parentid-flags, W3C Trace Context level 1.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/i;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
// Printable ASCII without space, quotes or backslash.
const REQUEST_ID = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;

function fromCloudTrace(value) {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const m = CLOUD_TRACE.exec(value);
  if (!m) return undefined;
  const id = m[1].toLowerCase();
  return id === ZERO_TRACE ? undefined : id;
}

function fromTraceparent(value) {
  if (typeof value !== 'string' || value.length !== 55) return undefined;
  const m = TRACEPARENT.exec(value);
  if (!m || m[1].toLowerCase() === 'ff') return undefined;
  const id = m[2].toLowerCase();
  if (id === ZERO_TRACE || m[3] === ZERO_SPAN) return undefined;
  return id;
}

function fromRequestId(value) {
  if (typeof value !== 'string' || value.length > 128) return undefined;
  return REQUEST_ID.test(value) ? value : undefined;
}

function generateId() {
  return randomUUID().replace(/-/g, '');
}

// headers: a Node IncomingMessage headers object (lower-case names).
function traceIdOf(headers) {
  return (
    fromCloudTrace(headers['x-cloud-trace-context']) ??
    fromTraceparent(headers.traceparent) ??
    fromRequestId(headers['x-request-id']) ??
    generateId()
  );
}

module.exports = { traceIdOf, fromCloudTrace, fromTraceparent, fromRequestId, generateId };
