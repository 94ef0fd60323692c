/** The field paths in an error response's `details` (spec 2.5), in order. */
export const detailPaths = async (res: Response): Promise<string[]> =>
  ((await res.json()).details ?? []).map((d: { path: string }) => d.path);
