'use strict';
// Preloaded (`node -r`) into ../shared/bench/hand-written-orders.js by bench/ab-serve.ts when BENCH_SYNCHRONOUS=full,
// so both servers commit with the same durability: the file sets `synchronous = NORMAL` and takes no setting, and
// `--synchronous full` makes servicespec fsync every commit. Nothing else of the hand-written server changes.
const Database = require('better-sqlite3');
const pragma = Database.prototype.pragma;
Database.prototype.pragma = function (source, options) {
  return pragma.call(this, /^\s*synchronous\s*=\s*normal\s*$/i.test(source) ? 'synchronous = FULL' : source, options);
};
