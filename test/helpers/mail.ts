/** The text of a message as an SMTP server received it: quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const body = headerEnd < 0 ? '' : raw.slice(headerEnd);
  const quoted = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
  const text = quoted
    ? body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : body;
  return text.replace(/\r\n/g, '\n').trim();
}

/** The subject header of a raw message. */
export const mailSubject = (raw: string) => /^subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? '';

/** The invitation link's token in a message's text. */
export function invitationLink(text: string): { url: string; token: string } {
  const match = /(\S+\/accept-invite\?token=([A-Za-z0-9_-]{43}))/.exec(text);
  if (!match) throw new Error(`no invitation link in:\n${text}`);
  return { url: match[1]!, token: match[2]! };
}
