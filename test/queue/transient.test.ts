import assert from "node:assert/strict";
import test from "node:test";
import { isTransientQueueError } from "../../src/queue/connect.js";

// What pg throws: a DatabaseError carries the SQLSTATE in `code`; a connection that cannot be made
// in time or is lost is a plain Error with pg's message.
const dbError = (code: string, message: string) => Object.assign(new Error(message), { code });

test("a deadlock, a serialization failure, too many connections and lost connections are transient", () => {
  assert.equal(isTransientQueueError(dbError("40P01", "deadlock detected")), true);
  assert.equal(isTransientQueueError(dbError("40001", "could not serialize access due to concurrent update")), true);
  assert.equal(isTransientQueueError(dbError("53300", "sorry, too many clients already")), true);
  assert.equal(isTransientQueueError(dbError("57P01", "terminating connection due to administrator command")), true);
  assert.equal(isTransientQueueError(new Error("Connection terminated due to connection timeout")), true);
  assert.equal(isTransientQueueError(new Error("timeout exceeded when trying to connect")), true);
  assert.equal(isTransientQueueError(new Error("read ECONNRESET")), true);
  assert.equal(isTransientQueueError(new Error("Client has encountered a connection error and is not queryable")), true);
  assert.equal(isTransientQueueError(Object.assign(new AggregateError([new Error("connect ECONNREFUSED 127.0.0.1:5432")]), { code: "ECONNREFUSED" })), true);
});

test("a broken statement, a missing table or a bad login is not transient", () => {
  assert.equal(isTransientQueueError(dbError("42601", "syntax error at or near \"SELEC\"")), false);
  assert.equal(isTransientQueueError(dbError("42P01", "relation \"items\" does not exist")), false);
  assert.equal(isTransientQueueError(dbError("28P01", "password authentication failed for user \"spatialprobe\"")), false);
  assert.equal(isTransientQueueError(new Error("run abc: item 3 is x here, y in the queue")), false);
  assert.equal(isTransientQueueError(undefined), false);
});
