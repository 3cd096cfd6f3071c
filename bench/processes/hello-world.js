'use strict';
// The yardstick for `ctxbench overhead`: the Express hello-world everyone writes first.
const express = require('express');

const app = express();
app.get('/', (req, res) => res.send('Hello World!'));
const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
