/**
 * What the query executor examined since start-up, as MongoDB's serverStatus reports it in
 * `metrics.queryExecutor`: `scanned` index keys and `scannedObjects` documents (a document whose
 * filter is evaluated, or that is read for a join). Benchmarks divide the difference by requests.
 */
export const executorStats = { scanned: 0, scannedObjects: 0 };
