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

/**
 * The subject header of a raw message, unfolded and its RFC 2047 encoded words decoded (nodemailer
 * writes a subject with quotes or `%` as `=?UTF-8?Q?…?=`, folded over several lines when long).
 */
export function mailSubject(raw: string): string {
  const headers = raw.slice(0, Math.max(0, raw.search(/\r?\n\r?\n/))).replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? '';
  return subject
    .replace(/\?=\s+=\?/g, '?==?') // whitespace between encoded words is not part of the text
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_match, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedWord(text),
    );
}

/** A Q-encoded word's text: `_` a space, `=XX` a byte. */
function quotedWord(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(char === '_' ? ' ' : char, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The invitation link's token in a message's text. */
export function invitationLink(text: string): { url: string; token: string } {
  const match = /(\S+\/accept-invite\?token=([A-Za-z0-9_-]{43}))/.exec(text);
  if (!match) throw new Error(`no invitation link in:\n${text}`);
  return { url: match[1]!, token: match[2]! };
}
