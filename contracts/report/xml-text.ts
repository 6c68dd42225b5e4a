/** Text safe inside an XML attribute or element (control characters XML 1.0 cannot carry are dropped). */
export function xmlText(value: string): string {
  // XML 1.0 cannot carry most control characters, even escaped.
  return (
    value
      // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 cannot carry
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}
