/** The field paths in an error response's `details` (docs/design.md "Envelopes"), in order. */
export const detailPaths = async (res: Response): Promise<string[]> =>
  ((await res.json()).details ?? []).map((d: { path: string }) => d.path);
