/** A locale code as the service accepts one: `en`, `fr-CA`, `zh-Hans`, `sr-Latn-RS`. */
export function isLocaleCode(code: unknown): code is string {
  return typeof code === 'string' && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(code);
}
