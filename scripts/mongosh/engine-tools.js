// Run by scripts/mongosh-engine.ts inside mongosh, connected to the embedded engine: what a user
// does with mongosh (explain, stats, a validator, a rename). Throws (mongosh exits non-zero) on
// the first answer that is not MongoDB's.
function check(ok, what, value) {
  if (!ok) throw new Error(`mongosh check failed: ${what}: ${JSON.stringify(value)}`);
  print(`ok  ${what}`);
}
function findStage(plan, name) {
  if (!plan || typeof plan !== 'object') return undefined;
  if (plan.stage === name) return plan;
  for (const v of Object.values(plan)) {
    const found = findStage(v, name);
    if (found) return found;
  }
  return undefined;
}

db.dropDatabase();
db.createCollection('books', {
  validator: {
    $jsonSchema: { bsonType: 'object', required: ['title'], properties: { title: { bsonType: 'string' } } },
  },
});
const books = db.getCollection('books');
books.insertMany([
  { _id: 1, title: 'Dune', year: 1965 },
  { _id: 2, title: 'Solaris', year: 1961 },
  { _id: 3, title: 'Hyperion', year: 1989 },
]);
books.createIndex({ year: 1 });

const find = books.find({ year: 1965 }).explain('executionStats');
const ixscan = findStage(find.queryPlanner.winningPlan, 'IXSCAN');
check(ixscan && ixscan.indexName === 'year_1', 'find().explain(): IXSCAN on year_1', find.queryPlanner.winningPlan);
check(
  find.executionStats.nReturned === 1 && find.executionStats.totalDocsExamined === 1,
  'executionStats',
  find.executionStats,
);

const agg = books.explain('executionStats').aggregate([{ $match: { year: { $gt: 1960 } } }, { $sort: { year: -1 } }]);
check(findStage(agg, 'IXSCAN') !== undefined, 'explain().aggregate(): IXSCAN', agg);
const count = books.explain('executionStats').count({ year: 1989 });
check(findStage(count, 'COUNT_SCAN') !== undefined, 'explain().count(): COUNT_SCAN', count.queryPlanner);
const distinct = books.explain().distinct('title', { year: 1961 });
check(findStage(distinct, 'IXSCAN') !== undefined, 'explain().distinct(): IXSCAN', distinct.queryPlanner);

const stats = books.stats();
check(stats.count === 3 && stats.nindexes === 2 && stats.size > 0, 'db.coll.stats()', stats);

let refused;
try {
  books.insertOne({ _id: 4, title: 42 });
} catch (e) {
  refused = e;
}
check(refused && refused.code === 121, 'validator refuses with 121', refused && refused.message);
check(books.countDocuments() === 3, 'nothing stored', books.countDocuments());

books.renameCollection('novels');
check(db.novels.countDocuments() === 3, 'renameCollection', db.getCollectionNames());
check(!db.getCollectionNames().includes('books'), 'old name gone', db.getCollectionNames());
db.dropDatabase();
print('mongosh: all checks passed');
