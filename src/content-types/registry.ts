import { settleBothSidesInversedBy } from './both-sides-owning.js';
import type { CustomFieldTypes } from './custom-fields.js';
import {
  linkRelations,
  normalizeComponent,
  normalizeContentType,
  type ComponentSource,
  type ContentTypeSource,
  type NormalizeOptions,
} from './normalize.js';
import type { SchemaNotice } from './notices.js';
import { SchemaError } from './schema-error.js';
import {
  RESERVED_COLLECTION_NAMES,
  type Attribute,
  type Component,
  type ContentType,
  type RelationInfo,
  type Schema,
} from './types.js';
import { UPLOAD_FILE_UID } from './uids.js';

export interface RegistryOptions {
  /** i18n plugin on: `pluginOptions.i18n.localized` types get `locale` and `localizations` */
  i18n: boolean;
  /** the app's custom field uid → base type mapping (known plugins need none) */
  customFields?: CustomFieldTypes;
  /**
   * an api type's `inversedBy` naming an attribute its target lacks is held in `deferred` (the
   * relation one-way) instead of thrown: the app's code may add that attribute before it is used
   */
  deferMissingInverse?: boolean;
  /** content-types the app's code added (an extension's new plugin type): a missing inverse of theirs waits as an api type's */
  addedByCode?: ReadonlySet<string>;
}

/**
 * Every content-type and component of the app, normalised and cross-checked. Built once at
 * start-up and passed to whoever needs it (never a global).
 */
export class Registry {
  private readonly contentTypes = new Map<string, ContentType>();
  private readonly components = new Map<string, Component>();
  private readonly byPlural = new Map<string, ContentType>();
  private readonly bySingular = new Map<string, ContentType>();
  /** what building the registry has to say at start-up (one log line each) */
  readonly notices: SchemaNotice[];
  /** what stops start-up unless the app's code fixes it first (`deferMissingInverse`) */
  readonly deferred: SchemaError[] = [];

  constructor(
    contentTypes: ContentType[],
    components: Component[],
    notices: SchemaNotice[] = [],
    deferMissingInverse = false,
    addedByCode: ReadonlySet<string> = new Set(),
  ) {
    this.notices = notices;
    for (const ct of contentTypes) {
      if (this.contentTypes.has(ct.uid))
        throw new SchemaError(ct.source, `duplicate content-type uid ${ct.uid}; remove one of the two schemas`);
      this.contentTypes.set(ct.uid, ct);
    }
    for (const c of components) {
      if (this.components.has(c.uid))
        throw new SchemaError(c.source, `duplicate component uid ${c.uid}; remove one of the two files`);
      this.components.set(c.uid, c);
    }
    const routeNames = new Map<string, ContentType>();
    for (const ct of this.contentTypes.values()) {
      for (const name of new Set([ct.pluralName, ct.singularName])) {
        const clash = routeNames.get(name);
        if (clash && ct.namespace === 'api' && clash.namespace === 'api') {
          throw new SchemaError(
            ct.source,
            `name "${name}" is already used by ${clash.uid} (${clash.source}); rename info.singularName or info.pluralName`,
          );
        }
        routeNames.set(name, ct);
      }
      if (ct.namespace === 'api') {
        this.byPlural.set(ct.pluralName, ct);
        this.bySingular.set(ct.singularName, ct);
      }
    }
    const collections = new Map<string, Schema>();
    for (const schema of [...this.contentTypes.values()]) {
      if (RESERVED_COLLECTION_NAMES.has(schema.collectionName))
        throw new SchemaError(
          schema.source,
          `collectionName "${schema.collectionName}" is the name of a collection the service keeps; give the content-type another collectionName`,
        );
      const clash = collections.get(schema.collectionName);
      if (clash)
        throw new SchemaError(
          schema.source,
          `collectionName "${schema.collectionName}" is already used by ${clash.uid}; give one of them another collectionName`,
        );
      collections.set(schema.collectionName, schema);
    }
    settleBothSidesInversedBy([...this.contentTypes.values()], this.notices);
    for (const schema of this.all()) {
      this.checkReferences(schema);
      linkRelations(
        schema,
        this.contentTypes,
        this.notices,
        deferMissingInverse ? this.deferred : undefined,
        addedByCode,
      );
    }
  }

  static build(contentTypes: ContentTypeSource[], components: ComponentSource[], options: RegistryOptions): Registry {
    const normalize: NormalizeOptions = { i18n: options.i18n, customFields: options.customFields ?? {}, notices: [] };
    return new Registry(
      contentTypes.map((ct) => normalizeContentType(ct, normalize)),
      components.map((c) => normalizeComponent(c, normalize)),
      normalize.notices,
      options.deferMissingInverse,
      options.addedByCode,
    );
  }

  /**
   * Becomes `next` (built from the same files with the app's code's changes), so that whoever holds
   * this registry reads the new schemas; only before any entry was read or written.
   */
  replaceWith(next: Registry): void {
    const copy = <T>(into: Map<string, T>, from: Map<string, T>) => {
      into.clear();
      for (const [key, value] of from) into.set(key, value);
    };
    copy(this.contentTypes, next.contentTypes);
    copy(this.components, next.components);
    copy(this.byPlural, next.byPlural);
    copy(this.bySingular, next.bySingular);
    this.notices.splice(0, this.notices.length, ...next.notices);
    this.deferred.splice(0, this.deferred.length, ...next.deferred);
  }

  contentType(uid: string): ContentType | undefined {
    return this.contentTypes.get(uid);
  }

  component(uid: string): Component | undefined {
    return this.components.get(uid);
  }

  /** A content-type or a component. */
  schema(uid: string): Schema | undefined {
    return this.contentTypes.get(uid) ?? this.components.get(uid);
  }

  /** The api content-type routed at `/api/<pluralName>` (collection types only). */
  byPluralName(name: string): ContentType | undefined {
    const ct = this.byPlural.get(name);
    return ct?.kind === 'collectionType' ? ct : undefined;
  }

  /** The api single type routed at `/api/<singularName>`. */
  bySingularName(name: string): ContentType | undefined {
    const ct = this.bySingular.get(name);
    return ct?.kind === 'singleType' ? ct : undefined;
  }

  listContentTypes(): ContentType[] {
    return [...this.contentTypes.values()];
  }

  listComponents(): Component[] {
    return [...this.components.values()];
  }

  all(): Schema[] {
    return [...this.contentTypes.values(), ...this.components.values()];
  }

  attribute(uid: string, name: string): Attribute | undefined {
    return this.schema(uid)?.attributes[name];
  }

  relation(uid: string, name: string): RelationInfo | undefined {
    return this.schema(uid)?.relations[name];
  }

  private checkReferences(schema: Schema): void {
    for (const [name, attr] of Object.entries(schema.attributes)) {
      if (attr.type === 'component' && !this.components.has(attr.component)) {
        throw new SchemaError(
          schema.source,
          `unknown component "${attr.component}"; add src/components/${attr.component.replace('.', '/')}.json or remove the attribute`,
          name,
        );
      }
      if (attr.type === 'dynamiczone') {
        for (const uid of attr.components) {
          if (!this.components.has(uid))
            throw new SchemaError(
              schema.source,
              `unknown component "${uid}" in dynamic zone; add src/components/${uid.replace('.', '/')}.json or remove it from "components"`,
              name,
            );
        }
        if (schema.modelType === 'component')
          throw new SchemaError(
            schema.source,
            'a component cannot contain a dynamic zone; use a repeatable component',
            name,
          );
      }
      if (attr.type === 'media' && !this.contentTypes.has(UPLOAD_FILE_UID)) {
        throw new SchemaError(
          schema.source,
          'media attributes need the upload plugin; enable "upload" in config/plugins',
          name,
        );
      }
    }
  }
}
