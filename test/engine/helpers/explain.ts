// Reading explain replies the same way against the engine and a real mongod, which nests plan
// stages differently (pushed-down pipelines, `$cursor`, SBE's `queryPlan`).
import type { Document } from 'mongodb';

/** Every stage object named `name` anywhere in an explain reply, outermost first. */
export function stages(explain: unknown, name: string): Document[] {
  const found: Document[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object' && !('_bsontype' in v)) {
      const d = v as Document;
      if (d.stage === name) found.push(d);
      Object.values(d).forEach(visit);
    }
  };
  visit(explain);
  return found;
}

/** The index an explained read scans (IXSCAN or COUNT_SCAN), if any. */
export function indexUsed(explain: unknown): string | undefined {
  const [scan] = [...stages(explain, 'IXSCAN'), ...stages(explain, 'COUNT_SCAN')];
  return scan?.indexName as string | undefined;
}
