/** Sizes as Strapi reports them: records hold kilobytes (1000 bytes) rounded to 2 decimals. */
export function bytesToKbytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/** `200 MB`, `1 KB`: Strapi's wording in its size-limit message (decimal units). */
export function bytesToHumanReadable(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB'];
  if (bytes === 0) return '0 Bytes';
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1000)));
  return `${Math.round(bytes / 1000 ** i)} ${units[i]}`;
}
