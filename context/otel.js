'use strict';
const { context, createContextKey, ROOT_CONTEXT } = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');

const ID = createContextKey('ctxbench.id');
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

module.exports = {
  run: (id, fn) => context.with(ROOT_CONTEXT.setValue(ID, id), fn),
  current: () => context.active().getValue(ID),
  bind: (fn) => context.bind(context.active(), fn),
};
